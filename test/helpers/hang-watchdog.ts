import {writeSync} from 'node:fs';
import {after} from 'node:test';
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

/**
 * A file whose tests are all done but which a leftover socket or timer keeps alive (a test that
 * timed out mid-request, say) is ended here, `leftoverMs` after its last test, once what it wrote
 * has gone out. Not `--test-force-exit`: that flag ends the file at once, and with files run in
 * parallel the runner then loses the tail of the file's verdicts, passing or failing, and
 * reports fewer tests with exit 0 (nodejs/node#64833; seen here: the last 8 tests of
 * format-sanitize gone from a whole-suite run, 894 of 902). A timer unref'd: a file that ends by
 * itself is not held a moment longer.
 */
const leftoverMs = Number(process.env['AGENT_TUI_TEST_LEFTOVER_MS'] ?? 5000);
after(() => {
	const timer = setTimeout(() => {
		writeSync(2, `\nhang-watchdog: ${process.argv[1] ?? 'a test file'} has finished its tests but something it left open (a socket, a timer) keeps it alive: ending it\n`);
		// The verdicts already written reach the runner first: exit once stdout has taken them.
		process.stdout.write('', () => process.exit(process.exitCode ?? 0));
	}, leftoverMs);
	timer.unref();
});

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
