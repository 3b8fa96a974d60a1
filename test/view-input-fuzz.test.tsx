import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, recordingController} from './helpers/dashboard-fixture.js';
import {eventually} from './helpers/eventually.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/**
 * No byte sequence on stdin may stop the dashboard (issue 23.1: `ESC[31m` on the list, or
 * `ESC[31merror ESC[0m` pasted into a field, once killed it). Random and adversarial input (keys,
 * CSI/OSC/DCS/APC sequences whole and cut short, C0 and C1 controls, lone surrogates, terminal
 * replies, bracketed pastes closed or left open), split across reads at random points, goes
 * through the app's own input path (the guarded stdin, Ink's parser, the key dispatcher) into the
 * real Dashboard. After each run the dashboard must still be mounted, nothing may have been thrown,
 * and it must still answer keys: ctrl-c (quit from anywhere) reaches it.
 */

const esc = '\u001B';

/** One piece of input a terminal, a paste or a confused program could send. */
const piece: fc.Arbitrary<string> = fc.oneof(
	// Keys a person types, the keymap's letters among them.
	{weight: 6, arbitrary: fc.constantFrom(...'jkgG/?qynaxprsmicfoztv123 \r\n\t\u007F\u0008', 'status:stuck', 'kind:')},
	{weight: 3, arbitrary: fc.constantFrom(`${esc}[A`, `${esc}[B`, `${esc}[C`, `${esc}[D`, `${esc}[5~`, `${esc}[6~`, `${esc}[H`, `${esc}[F`, `${esc}[1~`, `${esc}[3~`, `${esc}[Z`, `${esc}OA`, `${esc}OP`, esc, `${esc}${esc}`, `${esc}j`)},
	// What issue 23.1 reported, and other colours.
	{weight: 3, arbitrary: fc.constantFrom(`${esc}[31m`, `${esc}[0m`, `${esc}[1m`, `${esc}[m`, `${esc}[38;5;208m`, `${esc}[38:2::1:2:3m`, `${esc}[31merror${esc}[0m`)},
	// Terminal replies and reports: cursor, device attributes, focus, mouse, kitty.
	{weight: 2, arbitrary: fc.constantFrom(`${esc}[12;40R`, `${esc}[?62;22c`, `${esc}[I`, `${esc}[O`, `${esc}[<0;10;5M`, `${esc}[M !!`, `${esc}[?1u`, `${esc}[97;5u`, `${esc}[27u`, `${esc}[99;5:3u`, `${esc}[1;5A`)},
	// String commands, terminated or not.
	{weight: 2, arbitrary: fc.tuple(fc.constantFrom(`${esc}]`, `${esc}P`, `${esc}_`, `${esc}^`, `${esc}X`, '\u009D', '\u0090'), fc.string({maxLength: 12}), fc.constantFrom('\u0007', `${esc}\\`, '\u009C', '')).map((parts) => parts.join(''))},
	// Any CSI: parameters, intermediates and a final byte drawn from their whole ranges.
	{weight: 2, arbitrary: fc.tuple(fc.constantFrom(`${esc}[`, '\u009B'), fc.string({unit: fc.constantFrom(...'0123456789;:<=>? !"#$%&\'()*+,-./'), maxLength: 8}), fc.integer({min: 0x40, max: 0x7e})).map(([start, middle, final]) => start + middle + String.fromCharCode(final))},
	// Bracketed pastes: closed, split, nested, never closed.
	{weight: 2, arbitrary: fc.tuple(fc.string({maxLength: 20}), fc.constantFrom(`${esc}[201~`, '')).map(([text, end]) => `${esc}[200~${text}${end}`)},
	{weight: 1, arbitrary: fc.constantFrom(`${esc}[200~`, `${esc}[201~`, `${esc}[200~${esc}[31merror${esc}[0m${esc}[201~`)},
	// Single code units of every kind: C0, C1, lone surrogates, noncharacters, wide and combining.
	{weight: 2, arbitrary: fc.integer({min: 0, max: 0xffff}).map((code) => String.fromCharCode(code))},
	{weight: 1, arbitrary: fc.constantFrom('\uD800', '\uDFFF', '\uFFFD', '\uFFFF', '\u202E', '\u200D', 'e\u0301', '漢字', '👩\u200D💻', '\u0000')},
	// Runs longer than a burst of typing.
	{weight: 1, arbitrary: fc.string({minLength: 9, maxLength: 60})},
);

/** A stream of pieces, cut into reads at arbitrary points (a sequence may span two reads). */
const reads = fc
	.tuple(fc.array(piece, {minLength: 1, maxLength: 25}), fc.array(fc.nat(), {maxLength: 8}))
	.map(([pieces, cuts]) => {
		const stream = pieces.join('');
		const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
		const chunks: string[] = [];
		let from = 0;
		for (const point of [...points, stream.length]) {
			if (point > from) chunks.push(stream.slice(from, point));
			from = point;
		}
		return chunks;
	});

const pasteTimeoutMs = 40;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function mount() {
	const controller = recordingController();
	let quits = 0;
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot())} controller={controller} onQuit={() => quits++} />, {columns: 80, rows: 24}, {pasteTimeoutMs});
	let crashed: unknown;
	rendered.instance.waitUntilExit().catch((error: unknown) => {
		crashed = error;
	});
	return {rendered, quits: () => quits, crashed: () => crashed};
}

/** Sends `chunks` as separate reads, then checks the dashboard is alive and answers ctrl-c. */
async function survives(view: ReturnType<typeof mount>, chunks: readonly string[]): Promise<void> {
	for (const chunk of chunks) {
		// A throw here is a crash: Ink parses and dispatches inside the read.
		view.rendered.stdin.write(chunk);
		await nextTurn();
	}
	assert.equal(view.crashed(), undefined, 'the dashboard is still mounted');
	const before = view.quits();
	// Ctrl-c quits from any context, even a field. A key typed ahead of a question that opened is
	// dropped, and a paste left open holds keys until the guard ends it: so it is sent until it
	// lands, each time in a read of its own.
	await eventually(
		async () => {
			view.rendered.stdin.write('\u0003');
			await new Promise((resolve) => setTimeout(resolve, 5));
			return view.quits();
		},
		'ctrl-c to reach the dashboard after the input',
		{until: (quits) => quits > before, timeoutMs: 4000, detail: () => `reads: ${JSON.stringify(chunks)}\nscreen:\n${view.rendered.lastFrame()}`},
	);
	assert.equal(view.crashed(), undefined, 'still mounted after the probe');
	assert.match(view.rendered.lastFrame(), /Conversations/, 'the frame is still the dashboard');
}

test('random and adversarial input, split across reads, in pastes and outside them: the dashboard keeps running and answering keys', {timeout: 240_000}, async () => {
	await fc.assert(
		fc.asyncProperty(reads, async (chunks) => {
			const view = mount();
			try {
				await waitForFrame(view.rendered.lastFrame, (text) => text.includes('Upgrade React'));
				await survives(view, chunks);
			} finally {
				view.rendered.unmount();
			}
		}),
		{numRuns: 60},
	);
});

test('one dashboard through 150 rounds of such input: state from earlier rounds does not trip a later one', {timeout: 240_000}, async (t) => {
	const view = mount();
	t.after(() => view.rendered.unmount());
	await waitForFrame(view.rendered.lastFrame, (text) => text.includes('Upgrade React'));
	const rounds = fc.sample(reads, {numRuns: 150, seed: 2311});
	for (const chunks of rounds) await survives(view, chunks);
});

test('the reported cases: ESC[31m on the list, a coloured paste into the filter; the text pasted is its words', async (t) => {
	const view = mount();
	t.after(() => view.rendered.unmount());
	const {rendered} = view;
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	for (const sequence of [`${esc}[31m`, `${esc}[0m`, `${esc}[1m`, `${esc}[m`]) {
		rendered.stdin.write(sequence);
		await nextTurn();
	}
	await waitForFrame(rendered.lastFrame, (text) => /› .*\n/.test(text));
	const selected = (frame: string) => frame.split('\n').find((line) => line.startsWith('›'));
	const first = selected(rendered.lastFrame());
	rendered.stdin.write('j');
	await waitForFrame(rendered.lastFrame, (text) => selected(text) !== first, {message: 'j still moves the selection'});
	rendered.stdin.write('/');
	await waitForFrame(rendered.lastFrame, (text) => /^\/ /m.test(text));
	rendered.stdin.write(`${esc}[200~${esc}[31merror${esc}[0m${esc}[201~`);
	const frame = await waitForFrame(rendered.lastFrame, (text) => /^\/ error/m.test(text), {message: 'the pasted words in the filter'});
	assert.doesNotMatch(frame, /\[31m|\[0m|␛/, 'no piece of the colour codes reaches the field');
	assert.equal(view.crashed(), undefined);
});
