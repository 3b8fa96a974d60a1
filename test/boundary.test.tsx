import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readdirSync, readFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Box, render, Static, Text, useInput, usePaste} from 'ink';
import {useLayoutEffect} from 'react';
import * as undici from 'undici';
import stringWidth from 'string-width';
import widestLine from 'widest-line';
import fc from 'fast-check';
import {reaches} from '../source/boundary/index.js';
import {installRenderSpeedups} from '../source/terminal/render-speedups.js';
import {inkErasePrefix, inkModeSwitch, inkSyncBegin, inkSyncEnd} from '../source/boundary/ink-frames.js';
import {useInkInputEmitter} from '../source/boundary/ink-input.js';
import {guardStdin} from '../source/boundary/ink-stdin.js';
import {applyPatch, sourcePatches} from '../source/boundary/source-patches.mjs';
import {Agent, errors, request} from '../source/boundary/undici-parts.js';
import {diffingStdout} from '../source/terminal/diff-stdout.js';
import {eventually} from './helpers/eventually.js';
import {FakeStdin} from './helpers/fake-stdin.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {VirtualScreen} from './helpers/virtual-screen.js';

/**
 * The boundary (source/boundary/): every reach into a library's internals is declared there, and
 * this file fails when an upgrade changes what a reach relies on: first by the files themselves
 * (version and content hash, naming what to re-read), then by behaviour, each reliance checked
 * the way the code uses it.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const installedFile = (name: string, file: string) => join(root, 'node_modules', name, file);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('every library file a reach depends on is the one it was written for', () => {
	for (const reach of reaches) {
		const {version} = JSON.parse(readFileSync(installedFile(reach.package, 'package.json'), 'utf8')) as {version: string};
		assert.equal(version, reach.version, `${reach.package} ${version} installed, ${reach.version} expected: re-read what source/boundary relies on (${reach.relies})`);
		for (const [file, hash] of Object.entries(reach.files)) {
			assert.equal(sha256(installedFile(reach.package, file)), hash, `${reach.package}/${file} changed: re-read it for what source/boundary relies on (${reach.relies})`);
		}
	}
});

test('every source patch applies to the installed file, once per edit', () => {
	for (const patch of sourcePatches) {
		const text = readFileSync(installedFile(patch.package, patch.file), 'utf8');
		const patched = applyPatch(patch, text);
		assert.notEqual(patched, text);
		assert.throws(() => applyPatch(patch, `${text}\n// changed upstream`), /is not the file the patch/);
	}
});

// (By a variable: yoga and meow type their index only.)
const yogaLoader = '../node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js';
const meowDependencies = '../node_modules/meow/build/dependencies.js';
const truncatesSliceAnsi = '../node_modules/cli-truncate/node_modules/slice-ansi/tokenize-ansi.js';

type SquashNode = {nodeName: string; childNodes: Array<SquashNode | {nodeName: '#text'; nodeValue: string}>};

/**
 * Ink's squashTextNodes (patched: its finish remembered per joined text and node kind) gives what
 * Ink 8.0.0 defines, asked once and again, in either order of kinds: CR LF to LF, sanitizeAnsi, the
 * three C1 controls to their ESC forms, and tabs expanded by wrap-ansi in an ink-text only.
 */
async function squashAsInkDefinesIt(): Promise<void> {
	const {default: squash} = (await import('../node_modules/ink/build/squash-text-nodes.js')) as {default: (node: SquashNode) => string};
	const {default: sanitizeAnsi} = (await import('../node_modules/ink/build/sanitize-ansi.js')) as {default: (text: string) => string};
	const {default: wrapAnsi} = (await import('../node_modules/wrap-ansi/index.js')) as {default: (text: string, columns: number, options: {trim: boolean}) => string};
	const finish = (text: string, inkText: boolean) => {
		const finished = sanitizeAnsi(text.replaceAll('\r\n', '\n')).replaceAll('\u009B', '\u001B[').replaceAll('\u009D', '\u001B]').replaceAll('\u009C', '\u001B\\');
		return inkText && finished.includes('\t') ? wrapAnsi(finished, Number.POSITIVE_INFINITY, {trim: false}) : finished;
	};
	// Escapes and controls of every sort, and combining marks that sanitizeAnsi moves colours past.
	const pieces = ['a', 'row ', '│', '\t', '\r\n', '\r', '\n', '\u001B[31m', '\u001B[39m', '\u001B[1;38;5;208m', '\u001B[m', '\u001B[4:3m', '\u001B[?25l', '\u001B[2K', '\u001B', '\u0007', '\u007F', '\u0085', '\u009B31m', '\u009D0;t\u009C', '\u001B]8;;https://x\u0007', '漢', '\u0301', 'e\u0301', '\uFE0F', '\u{1D167}'];
	fc.assert(
		fc.property(fc.array(fc.array(fc.constantFrom(...pieces), {maxLength: 6}), {minLength: 1, maxLength: 3}), fc.boolean(), (parts, virtualFirst) => {
			const children = parts.map((piece) => ({nodeName: '#text' as const, nodeValue: piece.join('')}));
			const joined = children.map((child) => child.nodeValue).join('');
			const kinds = virtualFirst ? ['ink-virtual-text', 'ink-text'] : ['ink-text', 'ink-virtual-text'];
			for (const nodeName of [...kinds, ...kinds]) {
				assert.equal(squash({nodeName, childNodes: children}), finish(joined, nodeName === 'ink-text'), JSON.stringify({nodeName, joined}));
			}
		}),
		{numRuns: 1500},
	);
	assert.equal(squash({nodeName: 'ink-text', childNodes: [{nodeName: '#text', nodeValue: 'a\u001B[2Kb\u0007'}]}), 'ab');
}

/**
 * ansi-tokenize's tokenize (patched: ASCII without CR, and any one code unit, walked a unit at a
 * time instead of through the grapheme segmenter) gives the segmenter's tokens. The same text
 * after an 'é' goes through the segmenter (not ASCII, not one unit), and 'é' is a cluster and a
 * token of its own there, so the tokens after it are the segmenter's for the text alone.
 */
async function tokenizeAsSegmented(): Promise<void> {
	const {tokenize} = (await import('@alcalzone/ansi-tokenize')) as {tokenize: (text: string, endChar?: number) => unknown[]};
	const ascii = ['a', ' ', 'ok', '\r', '\n', '\r\n', '\t', '\u0007', '\u007F', '\u0000', '\u001B', '\u001B[31m', '\u001B[1;38;5;208m', '\u001B[m', '\u001B[39', '\u001B]8;;https://x\u0007', '\u001B]0;title\u001B\\', '\u001B[2K', '[', 'm'];
	fc.assert(
		fc.property(fc.array(fc.constantFrom(...ascii), {maxLength: 8}), fc.integer({min: 1, max: 12}), (parts, endChar) => {
			const text = parts.join('');
			assert.deepEqual(tokenize(text), tokenize(`é${text}`).slice(1), JSON.stringify(text));
			assert.deepEqual(tokenize(text, endChar), tokenize(`é${text}`, endChar + 1).slice(1), JSON.stringify({text, endChar}));
		}),
		{numRuns: 1500},
	);
	// One code unit is one segment whatever it is: a glyph, a wide character, a mark, a lone surrogate.
	for (const unit of ['◆', '漢', '\u0301', '\uD800', '\uFE0F', '\u001B']) {
		assert.deepEqual(tokenize(unit).map((token) => (token as {value?: string}).value), [unit]);
	}
}

test('npm test runs the patched dependencies, and the patches change no result', async () => {
	const hooked = process.execArgv.some((argument) => argument.includes('patched-dependencies'));
	const loaded = [
		(await import('widest-line')) as {agentTuiSourcePatch?: string},
		(await import('../node_modules/ink/build/squash-text-nodes.js')) as {agentTuiSourcePatch?: string},
		(await import('string-width')) as {agentTuiSourcePatch?: string},
		(await import(yogaLoader)) as {agentTuiSourcePatch?: string},
		(await import('../node_modules/ink/build/reconciler.js')) as {agentTuiSourcePatch?: string},
		(await import(meowDependencies)) as {agentTuiSourcePatch?: string},
		(await import('../node_modules/@alcalzone/ansi-tokenize/build/tokenize.js')) as {agentTuiSourcePatch?: string},
		(await import('../node_modules/wrap-ansi/index.js')) as {agentTuiSourcePatch?: string},
		(await import('../node_modules/ink/build/line-update.js')) as {agentTuiSourcePatch?: string},
		(await import(truncatesSliceAnsi)) as {agentTuiSourcePatch?: string},
	];
	// Run on its own without the module hook, this file sees the files as installed.
	for (const module of loaded) assert.equal(module.agentTuiSourcePatch !== undefined, hooked, 'the patched copy is loaded exactly when the hook is on');
	// A CommonJS file (undici's, loaded by this file's import of undici) names itself in a set instead.
	const commonJs = (globalThis as {[key: symbol]: Set<string> | undefined})[Symbol.for('agent-tui.source-patches')];
	assert.equal(commonJs?.has('undici/lib/dispatcher/client.js') === true, hooked, "undici's patched client is loaded exactly when the hook is on");
	const samples = ['', 'plain', '│ ● ▸ ✓ 漢字', 'two\nlines ◆', '\u001B[36mcyan\u001B[39m\n\u001B[1m◆\u001B[22m x'];
	for (const sample of samples) {
		// widest-line's own definition; asked twice, the second answer is the remembered one.
		const expected = Math.max(0, ...sample.split('\n').map((line) => stringWidth(line)));
		assert.equal(widestLine(sample), expected);
		assert.equal(widestLine(sample), expected);
	}
	await squashAsInkDefinesIt();
	await tokenizeAsSegmented();
	// meow's normalize-package-data, loaded by its first call: still normalizes (meow's cli.pkg).
	const {default: meow} = await import('meow');
	const cli = meow('', {importMeta: import.meta, argv: [], pkg: {name: 'x', version: '1.2.3', repository: 'github:a/b'}});
	assert.equal((cli.pkg as {_id?: string})._id, 'x@1.2.3');
	assert.deepEqual((cli.pkg as {repository?: unknown}).repository, {type: 'git', url: 'git+https://github.com/a/b.git'});
	if (!hooked) return;
	// string-width with the glyph table in front (installRenderSpeedups) and without it.
	const {setFastWidth} = (await import('string-width')) as unknown as {setFastWidth: (measure: ((text: string) => number) | undefined) => ((text: string) => number) | undefined};
	installRenderSpeedups();
	const pieces = ['a', 'status', ' ', '│', '…', '▸', '◆', '✓', '漢字', 'é', '👍', '👨\u200D👩\u200D👧', 'e\u0301', '\u200D', '▶\uFE0F', '\t', '\u0007', '🇫🇷', '\uD800', '\u001B[1m', '\u001B[38;5;208m', '\u001B[0m', '\u001B]8;;https://x\u0007', '\u001B[2K', '\u009B31m'];
	fc.assert(
		fc.property(fc.array(fc.constantFrom(...pieces), {maxLength: 12}), (parts) => {
			const text = parts.join('');
			const fast = stringWidth(text);
			const table = setFastWidth(undefined);
			try {
				assert.equal(fast, stringWidth(text), JSON.stringify(text));
				assert.equal(stringWidth(text, {ambiguousIsNarrow: false}), stringWidth(text, {ambiguousIsNarrow: false}));
			} finally {
				setFastWidth(table);
			}
		}),
		{numRuns: 2000},
	);
	const table = setFastWidth(undefined);
	setFastWidth(table);
	assert.ok(table, 'the table is in front of string-width');
});

test("string-width's emoji guard lets every RGI emoji through: each is two columns wide", async () => {
	const hooked = process.execArgv.some((argument) => argument.includes('patched-dependencies'));
	assert.ok(hooked, 'npm test loads the patched string-width');
	const {setFastWidth} = (await import('string-width')) as unknown as {setFastWidth: (measure: ((text: string) => number) | undefined) => ((text: string) => number) | undefined};
	// string-width's own measure, the glyph table out of the way: its guard before \p{RGI_Emoji}.
	const table = setFastWidth(undefined);
	try {
		const rgi = /^\p{RGI_Emoji}$/v;
		const emoji: string[] = [];
		// Every code point alone, with the emoji variation selector, as a keycap, and with each skin tone.
		const tones = ['\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
		for (let code = 0; code <= 0x1_ff_ff; code++) {
			if (code >= 0xd8_00 && code <= 0xdf_ff) continue;
			const character = String.fromCodePoint(code);
			for (const text of [character, `${character}\uFE0F`, `${character}\uFE0F\u20E3`, ...tones.map((tone) => character + tone)]) if (rgi.test(text)) emoji.push(text);
		}
		// Flags, a subdivision flag (tags), and a family (ZWJ).
		emoji.push('🇫🇷', '🇯🇵', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', '👨\u200D👩\u200D👧');
		assert.ok(emoji.length > 2000, `${emoji.length} RGI emoji found`);
		const narrow = emoji.filter((text) => stringWidth(text) !== 2);
		assert.deepEqual(narrow.map((text) => [...text].map((character) => character.codePointAt(0)!.toString(16)).join(' ')), []);
		// And the guard says no where it should: a letter, a CJK character, a mark are not emoji.
		assert.deepEqual(['é', '漢', 'e\u0301', 'ｶ'].map((text) => stringWidth(text)), [1, 2, 1, 1]);
	} finally {
		setFastWidth(table);
	}
});

function InputProbe({seen}: {seen: string[]}) {
	const emitter = useInkInputEmitter();
	useLayoutEffect(() => {
		const onRaw = (raw: string) => seen.push(`raw ${JSON.stringify(raw)}`);
		emitter.on('input', onRaw);
		return () => {
			emitter.off('input', onRaw);
		};
	}, [emitter, seen]);
	useInput((input, key) => {
		seen.push(`key ${JSON.stringify(input)}${key.downArrow ? ' down' : ''}${key.ctrl ? ' ctrl' : ''}${key.escape ? ' escape' : ''}`);
		// What the key dispatcher does with the rest of a run: each key back through Ink's emitter.
		if (input === 'ab') emitter.emit('input', 'b');
	});
	usePaste((text) => seen.push(`paste ${JSON.stringify(text)}`));
	return <Text>probe</Text>;
}

test("Ink's input emitter: one event per key or run, raw listeners first, and what is emitted is handled like a read", async (t) => {
	const seen: string[] = [];
	const rendered = renderSized(<InputProbe seen={seen} />, {columns: 20, rows: 5});
	t.after(() => rendered.unmount());
	await eventually(() => rendered.lastFrame(), 'the probe', {until: (frame) => frame.includes('probe')});
	await new Promise((resolve) => setImmediate(resolve));
	// Ink splits a read at escape sequences (and at DEL, BS and ctrl-c); other runs stay whole.
	rendered.stdin.write('\u001B[B\u001B[Bab');
	rendered.stdin.write('\u0015');
	rendered.stdin.write('\u001B[200~pasted \u001B[31mred\u001B[201~');
	// A cursor report and a colour code are no keys: Ink drops them before any listener.
	rendered.stdin.write('\u001B[12;1R\u001B[31m');
	await eventually(() => seen.length, 'the events', {until: (count) => count >= 11, detail: () => seen.join('\n')});
	assert.deepEqual(seen, [
		'raw "\\u001b[B"',
		'key "" down',
		'raw "\\u001b[B"',
		'key "" down',
		'raw "ab"',
		'key "ab"',
		'raw "b"',
		'key "b"',
		'raw "\\u0015"',
		'key "u" ctrl',
		'paste "pasted \\u001b[31mred"',
	]);
});

test('a bracketed paste whose end never comes holds every later key in Ink; the guarded stdin ends it', async (t) => {
	for (const guarded of [false, true]) {
		const seen: string[] = [];
		const stdin = new FakeStdin();
		const guard = guardStdin(stdin as unknown as NodeJS.ReadStream, {timeoutMs: 50});
		const stdout = Object.assign(new FakeStdin(), {columns: 20, rows: 5, write: () => true});
		const instance = render(<InputProbe seen={seen} />, {
			stdin: (guarded ? guard.stream : stdin) as unknown as NodeJS.ReadStream,
			stdout: stdout as unknown as NodeJS.WriteStream,
			debug: true,
			exitOnCtrlC: false,
			patchConsole: false,
		});
		t.after(() => {
			instance.unmount();
			guard.dispose();
		});
		await new Promise((resolve) => setTimeout(resolve, 20));
		stdin.write('\u001B[200~lost');
		await new Promise((resolve) => setTimeout(resolve, 120));
		stdin.write('q');
		if (guarded) {
			await eventually(() => seen, 'the paste ended and q read', {until: (events) => events.includes('key "q"')});
			assert.deepEqual(seen, ['paste "lost"', 'raw "q"', 'key "q"']);
		} else {
			stdin.write('\u001B[201~'); // The paste's end, late: what Ink hands over now is what it held.
			await eventually(() => seen, 'the paste ended late', {until: (events) => events.length > 0});
			assert.deepEqual(seen, ['paste "lostq"'], 'Ink held the paste and the q after it until the end came: if this fails, Ink ends pastes itself and ink-stdin.ts can go');
		}
		instance.unmount();
	}
});

function Lines({lines}: {lines: readonly string[]}) {
	return (
		<Box flexDirection="column">
			{lines.map((line, index) => (
				<Text key={index}>{line}</Text>
			))}
		</Box>
	);
}

test('Ink writes each frame the way the frame differ reads it, and the screen matches the frame', async (t) => {
	const columns = 30;
	const rows = 8;
	const writes: string[] = [];
	const screen = new VirtualScreen(columns, rows);
	const terminal = Object.assign(new FakeStdin(), {
		columns,
		rows,
		write: (chunk: string | Uint8Array, ...rest: unknown[]) => {
			const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
			screen.write(text);
			const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
			callback?.();
			return true;
		},
	});
	// What Ink writes, before the differ: recorded by a stream in front of the terminal.
	const inkSide = Object.assign(new FakeStdin(), {
		columns,
		rows,
		write: (chunk: string | Uint8Array, ...rest: unknown[]) => {
			writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
			return (differ.write as (...args: unknown[]) => boolean)(chunk, ...rest);
		},
	});
	const differ = diffingStdout(terminal as unknown as NodeJS.WriteStream);
	const frames: string[][] = [
		['one', '\u001B[36mtwo\u001B[39m │ ●', 'three'],
		['one', 'two changed', 'three', 'four'],
		['only one'],
		['a', 'b', 'c', 'd', 'e', 'f', 'g'],
	];
	const instance = render(<Lines lines={frames[0]!} />, {
		stdout: inkSide as unknown as NodeJS.WriteStream,
		stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
		interactive: true,
		alternateScreen: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	t.after(() => instance.unmount());
	for (const [index, lines] of frames.entries()) {
		if (index > 0) instance.rerender(<Lines lines={lines} />);
		await instance.waitUntilRenderFlush();
		assert.equal(screen.text(), lines.map((line) => line.replaceAll(/\u001B\[\d+m/g, '')).join('\n'), `frame ${index}`);
	}
	// Every write was a mode switch, the alternate screen, or a frame behind `eraseLines`.
	// (An empty write is Ink waiting for the earlier ones to go out.)
	const frameWrites = writes.filter((write) => write !== '' && !inkModeSwitch.test(write) && write !== '\u001B[?1049h');
	assert.equal(frameWrites.length, frames.length);
	// On a terminal each frame is bracketed by synchronized output, the begin and the end each a
	// write of its own beside it (a cursor switch may come between): the differ holds the begin
	// back until it knows the frame.
	const written = writes.filter((write) => write !== '' && !/^\u001B\[\?25[hl]$/.test(write));
	for (const write of frameWrites) {
		const at = written.indexOf(write);
		assert.deepEqual([written[at - 1], written[at + 1]], [inkSyncBegin, inkSyncEnd], `around ${JSON.stringify(write)}`);
	}
	for (const write of frameWrites) {
		const body = write.slice(inkErasePrefix.exec(write)?.[0].length ?? 0);
		assert.doesNotMatch(body, /\u001B(?!\[[\d;]*m)/, `a frame holds only text and colours: ${JSON.stringify(write)}`);
	}
});

/** A live line under a <Static> list, or no <Static> at all. */
function StaticLog({items, live}: {items: string[] | undefined; live: string}) {
	return (
		<Box flexDirection="column">
			{items ? <Static items={items}>{(item) => <Text key={item}>{item}</Text>}</Static> : null}
			<Text>{live}</Text>
		</Box>
	);
}

test('<Static> still writes its items once each: mounted, grown, removed and mounted again (the reconciler patch skips only the search for none)', async () => {
	const rendered = renderSized(<StaticLog items={undefined} live="live 0" />, {columns: 30, rows: 8});
	try {
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('live 0'));
		rendered.instance.rerender(<StaticLog items={['static a']} live="live 1" />);
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('live 1'));
		rendered.instance.rerender(<StaticLog items={['static a', 'static b']} live="live 2" />);
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('live 2'));
		// Debug mode writes the static output so far above each frame: each item once, in order.
		assert.match(rendered.lastFrame(), /^static a\nstatic b\nlive 2/);
		rendered.instance.rerender(<StaticLog items={undefined} live="live 3" />);
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('live 3'));
		assert.doesNotMatch(rendered.lastFrame(), /static/, 'a removed <Static> is written no more');
		rendered.instance.rerender(<StaticLog items={['static c']} live="live 4" />);
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('live 4'));
		assert.match(rendered.lastFrame(), /^static c\nlive 4/, 'a <Static> mounted again writes its items');
	} finally {
		rendered.unmount();
	}
});

test("undici's files loaded by path are the objects its index exports, and a request through them works", async (t) => {
	assert.equal(Agent, undici.Agent);
	assert.equal(errors, undici.errors);
	assert.ok(new errors.HeadersTimeoutError() instanceof undici.errors.UndiciError);
	const server = createServer((incoming, response) => response.end(`${incoming.method} ${incoming.url}`));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const agent = new Agent();
	t.after(async () => {
		await agent.close();
		server.close();
	});
	const {port} = server.address() as AddressInfo;
	const response = await request(new URL(`http://127.0.0.1:${port}/a/b?c=d`), {method: 'GET', dispatcher: agent});
	assert.equal(response.statusCode, 200);
	assert.equal(await response.body.text(), 'GET /a/b?c=d');
});

test('nothing outside source/boundary reaches into node_modules, deep-imports a package, or uses an internal_ property', () => {
	const offenders: string[] = [];
	const walk = (directory: string) => {
		for (const entry of readdirSync(directory, {withFileTypes: true})) {
			const path = join(directory, entry.name);
			if (entry.isDirectory()) {
				if (path !== join(root, 'source', 'boundary')) walk(path);
				continue;
			}
			const text = readFileSync(path, 'utf8');
			// A path below a package's name: `pkg/…`, or `@scope/pkg/…` (`@scope/pkg` alone is the package).
			const deepImport = /from '(?!node:|\.)(?:@[^/']+\/[^/']+|[^@/'][^/']*)\/[^']*'/.exec(text);
			if (text.includes('node_modules/') || deepImport || /\binternal_\w+/.test(text)) offenders.push(`${path.slice(root.length)}${deepImport ? ` (${deepImport[0]})` : ''}`);
		}
	};
	walk(join(root, 'source'));
	assert.deepEqual(offenders, []);
});
