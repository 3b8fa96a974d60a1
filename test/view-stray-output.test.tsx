import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openDebugLog} from '../source/config/debug-log.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {captureStrayOutput} from '../source/terminal/stray-output.js';
import {fixtureSnapshot, fixtureStore, recordingController} from './helpers/dashboard-fixture.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/**
 * While the dashboard draws, Node's warnings and a library's stray stderr go to the debug log,
 * not over the frame; afterwards everything prints again. Uses the real process's warning
 * machinery and the real process.stderr, with the test's own recorder standing in as its write.
 */

const tick = () => new Promise((resolve) => setImmediate(resolve));

function scratchLog(t: {after: (fn: () => void) => void}) {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-debug-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return openDebugLog(join(dir, 'agent-tui', 'debug.log'));
}

/** Records what reaches process.stderr (Node's warning printer writes there too). */
function recordStderr(t: {after: (fn: () => void) => void}) {
	const written: string[] = [];
	const original = Object.getOwnPropertyDescriptor(process.stderr, 'write');
	process.stderr.write = ((chunk: string | Uint8Array) => {
		written.push(String(chunk));
		return true;
	}) as typeof process.stderr.write;
	t.after(() => {
		if (original) Object.defineProperty(process.stderr, 'write', original);
		else delete (process.stderr as Partial<NodeJS.WriteStream>).write;
	});
	return written;
}

test('warnings, console.error and stderr writes go to a private debug log, and print again after restore', async (t) => {
	const log = scratchLog(t);
	const written = recordStderr(t);
	const printersBefore = process.listeners('warning').length;
	const errorBefore = console.error;
	const capture = captureStrayOutput({log, secrets: ['sk-live-secret-1234567890']});
	let told = 0;
	capture.subscribe(() => told++);

	process.emitWarning('11 abort listeners added to [AbortSignal]. MaxListeners is 10.', 'MaxListenersExceededWarning');
	console.error('library: token sk-live-secret-1234567890 refused');
	process.stderr.write('a raw stderr line\n');
	await tick();
	await tick();

	assert.deepEqual(written, [], 'nothing reached the terminal while captured');
	const text = readFileSync(log.path, 'utf8');
	assert.match(text, /warning: MaxListenersExceededWarning: 11 abort listeners added/);
	assert.match(text, /console\.error: library: token \[redacted\] refused/);
	assert.match(text, /stderr: a raw stderr line/);
	assert.doesNotMatch(text, /sk-live-secret/);
	assert.equal(statSync(log.path).mode & 0o777, 0o600, 'the log is private to its owner');
	assert.equal(capture.latest()?.count, 3);
	assert.ok(told >= 1, 'the view was told');

	capture.restore();
	assert.equal(console.error, errorBefore);
	assert.equal(process.listeners('warning').length, printersBefore, "Node's own warning printer is back");
	process.emitWarning('after the dashboard', 'LaterWarning');
	console.error('a fatal error after the dashboard closed');
	await tick();
	await tick();
	const after = written.join('');
	assert.match(after, /LaterWarning: after the dashboard/, 'a warning prints again');
	assert.match(after, /a fatal error after the dashboard closed/, 'console.error prints again');
	assert.doesNotMatch(readFileSync(log.path, 'utf8'), /after the dashboard/, 'nothing more is captured');
});

test('a captured warning shows on the footer notice line, not in the frame body', async (t) => {
	const log = scratchLog(t);
	const written = recordStderr(t);
	const capture = captureStrayOutput({log});
	t.after(() => capture.restore());
	const store = fixtureStore(fixtureSnapshot());
	const rendered = renderSized(
		<Dashboard store={store} controller={recordingController()} onQuit={() => undefined} strayOutput={{output: capture, logPath: log.path}} />,
		{columns: 160, rows: 30},
	);
	t.after(() => rendered.unmount());
	const first = await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Conversations'));
	assert.doesNotMatch(first, /Captured output/, 'no notice before anything was captured');

	process.emitWarning('11 abort listeners added to [AbortSignal]', 'MaxListenersExceededWarning');
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Captured output'), {message: 'the notice'});
	const lines = frame.split('\n');
	const noticeAt = lines.findIndex((line) => line.includes('Captured output: MaxListenersExceededWarning: 11 abort listeners'));
	assert.equal(noticeAt, lines.length - 1, 'on the notice line, the last of the frame');
	assert.ok(lines[noticeAt]?.includes('debug.log'), 'the notice says where the details are');
	assert.deepEqual(written, []);
});
