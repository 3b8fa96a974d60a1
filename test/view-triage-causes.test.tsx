import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import type {ConversationRow, DashboardSnapshot} from '../source/state/dashboard-types.js';
import {Dashboard} from '../source/view/Dashboard.js';
import type {ErrorCause, FailureKind} from '../source/wire/error-classification.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController, sandboxRow} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * `!`: what needs you, by cause, with a count and the oldest age per group; enter shows a group
 * in the list; `c` runs every retryable error of a group again after listing them and asking
 * y/n; `C` does it for the whole fleet; `r` resumes what was paused mid-run, saying what the cap
 * pauses; a group without a safe remedy says what to change and does nothing.
 */

function cause(kind: FailureKind, retryable: boolean, userAction: 'none' | 'retry' | 'settings'): ErrorCause {
	return {eventKind: 'ConversationErrorEvent', eventId: 'e', timestamp: '2026-11-20T12:00:00', code: 'X', toolName: null, detail: 'd', classification: {kind, reportedKind: null, retryable, userAction, errorId: null}};
}

function errored(n: number, title: string, errorCause: ErrorCause, minutesAgo: number, sandbox = 'RUNNING'): ConversationRow {
	const row = conversationRow({id: hexId(n), title, execution: sandbox === 'RUNNING' ? 'error' : null, lastKnown: 'error', sandbox, updatedMinutesAgo: minutesAgo});
	return {...row, errorCause} as ConversationRow;
}

function snapshot(): DashboardSnapshot {
	const rows = [
		conversationRow({id: hexId(1), title: 'Healthy one', execution: 'running'}),
		conversationRow({id: hexId(2), title: 'Wants approval', execution: 'waiting_for_confirmation', updatedMinutesAgo: 14}),
		errored(3, 'Backfill the search index', cause('rate_limit', true, 'retry'), 9),
		errored(4, 'Translate the emails', cause('rate_limit', true, 'retry'), 2),
		errored(5, 'Rate limited but paused', cause('rate_limit', true, 'retry'), 40, 'PAUSED'),
		errored(6, 'Document the SDK', cause('quota', false, 'settings'), 60),
		errored(7, 'Upgrade Terraform', cause('auth', false, 'settings'), 30),
		conversationRow({id: hexId(8), title: 'Cut off mid-run', execution: null, sandbox: 'PAUSED', lastKnown: 'running', updatedMinutesAgo: 20}),
	];
	const base = fixtureSnapshot({conversations: new Map(rows.map((row) => [row.key, row]))});
	// Two old running sandboxes and a cap of 3: resuming one pauses the oldest running one.
	const sandboxes = new Map(base.sandboxes);
	for (const [id, minutes] of [
		['sb-old1', 900],
		['sb-old2', 800],
	] as const) {
		sandboxes.set(id, sandboxRow({id, status: 'RUNNING', createdMinutesAgo: minutes, users: []}));
	}
	sandboxes.set(`sb-${hexId(8).slice(-4)}`, sandboxRow({id: `sb-${hexId(8).slice(-4)}`, status: 'PAUSED', createdMinutesAgo: 500, users: [hexId(8)]}));
	return {...base, sandboxes, runningSandboxCap: 3};
}

function assertFits(frame: string, columns: number) {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
}

function controller() {
	const base = recordingController();
	return Object.assign(base, {
		async continueAgent(key: string) {
			base.calls.push({method: 'continueAgent', args: [key]});
			return 'started' as const;
		},
	});
}

const lineWith = (frame: string, text: string) => frame.split('\n').find((line) => line.includes(text)) ?? '';

/** The dashboard on the triage fixture (`snapshot`) at `columns`x`rows`, once its list is drawn. */
async function listed(columns: number, rows: number, recording: ReturnType<typeof controller> = controller()) {
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot())} controller={recording} onQuit={() => undefined} />, {columns, rows});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Healthy one'));
	return {recording, rendered, frame};
}

test('! groups what needs you by cause, with counts and the oldest age; a group without a safe remedy says what to change and does nothing', async () => {
	const {recording, rendered} = await listed(120, 30);
	const frame = await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	assertFits(frame, 120);
	assert.match(frame, /What needs you, by cause: 6 conversations in 4 groups · 1 more paused mid-run/);
	assert.match(lineWith(frame, 'waiting for approval'), /waiting for approval +1 +1[34]m/);
	assert.match(lineWith(frame, 'rate limit'), /error · rate limit · retryable +3 +(39|40)m +c runs all 3 again/);
	assert.match(lineWith(frame, 'quota'), /error · quota +1 +(59m|1h) +the budget is spent: raise max_budget_per_task in the settings/);
	assert.match(lineWith(frame, 'auth'), /error · auth +1 +(29|30)m +the LLM key was refused/);
	assert.match(lineWith(frame, 'paused mid-run  '), /paused mid-run +1 +(19|20)m +r resumes their sandboxes/);
	// c on the quota group: nothing is run, the notice says why.
	await press(rendered, 'jj', (text) => /› error · quota/.test(text));
	const refused = await press(rendered, 'c', (text) => text.includes('not retryable, nothing is run'));
	assert.match(refused, /raise max_budget_per_task/);
	assert.deepEqual(recording.calls.filter((call) => call.method === 'continueAgent'), []);
	rendered.unmount();
});

test('c on the retryable group: the conversations it runs and the ones it skips, y/n, then POST run on each, one at a time', async () => {
	const {recording, rendered} = await listed(100, 30);
	await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	await press(rendered, 'j', (text) => /› error · rate limit/.test(text));
	let frame = await press(rendered, 'c', (text) => text.includes('[y/n]'));
	assertFits(frame, 100);
	assert.match(frame, /Run 2 conversations again \(error · rate limit · retryable\)\? \[y\/n\]/);
	assert.match(frame, /Backfill the search index/);
	assert.match(frame, /Translate the emails/);
	assert.match(frame, /1 skipped: its sandbox is paused: resume it first/);
	assert.doesNotMatch(frame, /Rate limited but paused/, 'the skipped one is not in the list y acts on');
	assert.deepEqual(recording.calls.filter((call) => call.method === 'continueAgent'), [], 'nothing before y');
	frame = await press(rendered, 'y', (text) => text.includes('2 of 2 done'));
	assert.deepEqual(
		recording.calls.filter((call) => call.method === 'continueAgent').map((call) => call.args[0]),
		[hexId(3), hexId(4)],
		'the longest-waiting first',
	);
	assert.match(frame, /✓ .*Backfill the search index +running again/);
	await press(rendered, keys.escape, (text) => !text.includes('2 of 2 done') && text.includes('Healthy one'));
	rendered.unmount();
});

test('C runs every retryable error of the fleet behind one question; n cancels and nothing is sent', async () => {
	const {recording, rendered} = await listed(80, 24);
	const frame = await press(rendered, 'C', (text) => text.includes('[y/n]'));
	assertFits(frame, 80);
	assert.match(frame, /Run 2 conversations again \(every retryable error\)\?/);
	await press(rendered, 'n', (text) => text.includes('Cancelled: nothing was done.'));
	assert.deepEqual(recording.calls.filter((call) => call.method === 'continueAgent'), []);
	rendered.unmount();
});

test('r on the paused group: which running sandbox the cap pauses, then y resumes', async () => {
	const {recording, rendered} = await listed(140, 30);
	await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	await press(rendered, 'G', (text) => /› paused mid-run/.test(text));
	const frame = await press(rendered, 'r', (text) => text.includes('[y/n]'));
	assert.match(frame, /Resume 1 sandbox of 1 conversation \(paused mid-run\)\? \[y\/n\]/);
	assert.match(frame, /At the cap of 3 running sandboxes the service pauses the oldest running ones, in this order: sb-old1/);
	await press(rendered, 'y', (text) => text.includes('of 1 done'));
	assert.deepEqual(
		recording.calls.filter((call) => call.method === 'resumeSandbox').map((call) => call.args[0]),
		[`sb-${hexId(8).slice(-4)}`],
	);
	rendered.unmount();
});

test('enter on a group shows its conversations in the list, under the filter cause:…', async () => {
	const {rendered} = await listed(100, 30);
	await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	await press(rendered, 'j', (text) => /› error · rate limit/.test(text));
	const frame = await press(rendered, keys.enter, (text) => text.includes('cause:error:rate_limit') && text.includes('3 of 8'));
	assert.match(frame, /Backfill the search index/);
	assert.doesNotMatch(frame, /Healthy one/);
	rendered.unmount();
});

test('the queue counts what needs you as the header does; conversations paused mid-run are counted apart', async () => {
	const {rendered, frame: list} = await listed(120, 30);
	const needYou = Number(/! (\d+) need you/.exec(list)?.[1]);
	assert.equal(needYou, 6, 'the header: approval, three rate limits, quota, auth');
	const frame = await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	assert.match(frame, new RegExp(`What needs you, by cause: ${needYou} conversations in 4 groups · 1 more paused mid-run`));
	assert.match(lineWith(frame, 'paused mid-run  '), /paused mid-run +1 /, 'the paused group is still listed, with its remedy');
	rendered.unmount();
});

test('at 80 columns the selected group\'s advice is on screen whole, however narrow its column', async () => {
	const {rendered} = await listed(80, 24);
	await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	const quota = await press(rendered, 'jj', (text) => /› error · quota/.test(text));
	assertFits(quota, 80);
	assert.match(lineWith(quota, '› error · quota'), /the budget is spent: raise max_bu…/, 'the column is cut at 80');
	const words = (frame: string) => frame.replaceAll(/\s+/g, ' ');
	assert.match(words(quota), /error · quota: the budget is spent: raise max_budget_per_task in the settings, then run them again/);
	const auth = await press(rendered, 'j', (text) => /› error · auth/.test(text));
	assert.match(words(auth), /error · auth: the LLM key was refused: fix it in the settings; nothing here can/);
	assert.doesNotMatch(words(auth), /then run them again/, 'the advice follows the selection');
	assert.ok(auth.split('\n').length <= 24, 'the frame fits the terminal');
	rendered.unmount();
});

/** Two conversations paused mid-run on old sandboxes, two younger running ones, the cap unknown. */
function pausedSnapshot(): DashboardSnapshot {
	const rows = [
		conversationRow({id: hexId(21), title: 'First cut off', execution: null, sandbox: 'PAUSED', sandboxId: 'sb-p1', lastKnown: 'running', updatedMinutesAgo: 30}),
		conversationRow({id: hexId(22), title: 'Second cut off', execution: null, sandbox: 'PAUSED', sandboxId: 'sb-p2', lastKnown: 'running', updatedMinutesAgo: 25}),
		conversationRow({id: hexId(23), title: 'Still going', execution: 'running', sandboxId: 'sb-run'}),
		conversationRow({id: hexId(24), title: 'Also going', execution: 'running', sandboxId: 'sb-run2'}),
	];
	const sandboxes = new Map(
		[
			sandboxRow({id: 'sb-p1', status: 'PAUSED', createdMinutesAgo: 1000, users: [hexId(21)]}),
			sandboxRow({id: 'sb-p2', status: 'PAUSED', createdMinutesAgo: 950, users: [hexId(22)]}),
			sandboxRow({id: 'sb-run', status: 'RUNNING', createdMinutesAgo: 900, users: [hexId(23)]}),
			sandboxRow({id: 'sb-run2', status: 'RUNNING', createdMinutesAgo: 800, users: [hexId(24)]}),
		].map((row) => [row.key, row]),
	);
	return fixtureSnapshot({conversations: new Map(rows.map((row) => [row.key, row])), sandboxes, runningSandboxCap: null});
}

test('at 80 columns the resume question says whole which sandboxes the service may pause, in order; an unknown cap is not printed as "?"', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(pausedSnapshot())} controller={controller()} onQuit={() => undefined} />, {columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Still going'));
	await press(rendered, '!', (text) => /› paused mid-run/.test(text));
	const frame = await press(rendered, 'r', (text) => text.includes('[y/n]'));
	assertFits(frame, 80);
	assert.ok(frame.split('\n').length <= 24, 'the frame fits the terminal');
	const words = frame.replaceAll(/\s+/g, ' ');
	assert.match(words, /Resume 2 sandboxes of 2 conversations \(paused mid-run\)\? \[y\/n\]/);
	assert.match(words, /may pause its oldest running sandbox, in this order: sb-run \(1 conversation\), then sb-p1 \(1 conversation\)\./);
	assert.match(words, /⚠ sb-p1 may be paused again by a later resume/);
	assert.doesNotMatch(words, /\?\s+sandboxes/, 'no "at most ? sandboxes"');
	assert.match(frame, /sb-p1 +paused +First cut off/, 'the list y acts on is still there');
	assert.match(frame, /sb-p2 +paused +Second cut off/);
	rendered.unmount();
});

test('a remedy under way can be stopped: esc closes the panel at once, the ones not sent yet are not sent, and the question is no longer asked', async () => {
	const base = recordingController();
	let release: (() => void) | undefined;
	const slow = Object.assign(base, {
		continueAgent(key: string) {
			base.calls.push({method: 'continueAgent', args: [key]});
			// The first agent server does not answer until released.
			return new Promise<'started'>((resolve) => {
				release = () => resolve('started');
			});
		},
	});
	const {rendered} = await listed(100, 30, slow);
	await press(rendered, '!', (text) => text.includes('What needs you, by cause'));
	await press(rendered, 'j', (text) => /› error · rate limit/.test(text));
	await press(rendered, 'c', (text) => text.includes('[y/n]'));
	const sending = await press(rendered, 'y', (text) => text.includes('0 of 2 done'));
	assert.doesNotMatch(sending, /\[y\/n\]/, 'once answered, the question is not asked again');
	assert.match(sending, /Running 2 conversations again \(error · rate limit · retryable\)/);
	assert.match(sending, /esc stops/);
	const closed = await press(rendered, keys.escape, (text) => !text.includes('0 of 2 done') && text.includes('Healthy one'));
	assert.match(closed, /Stopped: 1 of 2 sent, 1 not sent\./);
	release?.();
	await new Promise((resolve) => setImmediate(resolve));
	await new Promise((resolve) => setImmediate(resolve));
	assert.deepEqual(
		base.calls.filter((call) => call.method === 'continueAgent').map((call) => call.args[0]),
		[hexId(3)],
		'the second was never sent',
	);
	rendered.unmount();
});
