import {writeSync} from 'node:fs';
import {Worker} from 'node:worker_threads';

/**
 * Loaded before every test file (`--import`, in the npm test scripts): a test whose code never
 * yields (a loop that does not end) blocks the event loop, and then no timer of the file's own
 * can fire, neither a test's `{timeout}` nor `--test-timeout`: the file would hang until someone
 * kills it. A worker thread watches a heartbeat the main thread writes every 250 ms; when it is
 * older than the limit (AGENT_TUI_TEST_BLOCKED_MS, default 30 s), the worker says so on stderr
 * and ends the process, so the runner reports the file as failed within seconds.
 *
 * Legitimate blocking stays far below the limit: tests run children with `spawn`, not
 * `spawnSync`, for anything that takes seconds (test/suite-timeouts.test.ts checks), and a long
 * synchronous property yields between runs (fc.asyncProperty). The heartbeat's clock is
 * process.hrtime: mock.timers replaces Date, and a mocked Date would look like a blocked loop.
 */

const limitMs = Number(process.env['AGENT_TUI_TEST_BLOCKED_MS'] ?? 30_000);

// A clock no test can mock (mock.timers replaces Date) and the same in both threads.
const now = () => Number(process.hrtime.bigint() / 1_000_000n);
const beat = new Float64Array(new SharedArrayBuffer(8));
beat[0] = now();
setInterval(() => {
	beat[0] = now();
}, 250).unref();

const watcher = `
const {workerData} = require('node:worker_threads');
const {writeSync} = require('node:fs');
const beat = new Float64Array(workerData.buffer);
const now = () => Number(process.hrtime.bigint() / 1000000n);
const timer = setInterval(() => {
	const blocked = now() - beat[0];
	if (blocked < workerData.limitMs) return;
	clearInterval(timer);
	writeSync(2, '\\nhang-watchdog: the event loop of ' + workerData.file + ' has been blocked for ' + Math.round(blocked / 1000) + ' s (a loop that never yields?): ending the process\\n');
	process.kill(workerData.pid, 'SIGTERM');
	// Ink (signal-exit) listens for SIGTERM, and a listener cannot run while the loop is blocked:
	// then it takes SIGKILL. A blocking wait here, since nothing else keeps this thread alive.
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
	process.kill(workerData.pid, 'SIGKILL');
}, 500);
`;

try {
	const worker = new Worker(watcher, {eval: true, workerData: {buffer: beat.buffer, limitMs, pid: process.pid, file: process.argv[1] ?? 'a test file'}, stdout: false, stderr: false});
	worker.unref();
} catch (error) {
	writeSync(2, `hang-watchdog: not started (${String(error)})\n`);
}
