import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {openDebugLog} from '../source/config/debug-log.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {createExitGuard} from '../source/terminal/exit-guard.js';
import {captureStrayOutput} from '../source/terminal/stray-output.js';
import {fixtureSnapshot, fixtureStore, recordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * An exception nobody expected writes its stack to the debug log, and what the person sees says
 * where: on the notice line when a key's handling threw (the dashboard carries on), on the line
 * printed after the screen is restored when the dashboard could not go on.
 */

const ctrlR = keys.ctrlR;

function tempLog(t: {after(fn: () => void): void}) {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-error-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return openDebugLog(join(dir, 'debug.log'));
}

test('a key whose handling throws: the stack goes to the debug log, the notice says where, the next key works', async (t) => {
	const log = tempLog(t);
	const fakeConsole = {...console};
	const stray = captureStrayOutput({log, process: new EventEmitter() as never, console: fakeConsole, stderr: {write: () => true}});
	t.after(() => stray.restore());
	const controller = recordingController();
	controller.refresh = () => {
		throw new Error('refresh exploded');
	};
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot())} controller={controller} onQuit={() => undefined} strayOutput={{output: stray, logPath: log.path}} />, {columns: 120, rows: 24});
	t.after(() => rendered.unmount());
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	const frame = await press(rendered, ctrlR, (text) => text.includes('Unexpected error'));
	assert.match(frame, /Unexpected error: refresh exploded; its stack is in \S*debug\.log/);
	const logged = readFileSync(log.path, 'utf8');
	assert.match(logged, /unexpected error: Error: refresh exploded\n\s+at /, 'the stack, not only the message');
	// The dashboard carries on: the next key is handled.
	const selected = (text: string) => text.split('\n').find((line) => line.startsWith('›'));
	const before = selected(frame);
	await press(rendered, 'j', (text) => selected(text) !== before);
});

test('a crash: the stack goes to the debug log, secrets removed, and the printed line says where', async (t) => {
	const log = tempLog(t);
	const secret = 'CRASH-SECRET-23';
	const target = new EventEmitter();
	let stderr = '';
	const guard = createExitGuard({
		screen: {active: true, restore: () => undefined},
		stderr: {write: (chunk: string) => (stderr += chunk)},
		unmount: () => undefined,
		cleanup: async () => undefined,
		secrets: [secret],
		log,
		target,
	});
	guard.install();
	target.emit('uncaughtException', new TypeError(`Cannot read properties of undefined (reading 'startsWith') near ${secret}`));
	assert.equal(await guard.done, 1);
	assert.match(stderr, /^agent-tui: Cannot read properties of undefined \(reading 'startsWith'\).* \(stack in \S*debug\.log\)\n$/);
	const logged = readFileSync(log.path, 'utf8');
	assert.match(logged, /crash: TypeError: Cannot read properties of undefined/);
	assert.match(logged, /\n\s+at /, 'the stack');
	assert.ok(!logged.includes(secret) && !stderr.includes(secret), 'no secret in the log or the line');
});
