import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {runCli, type CliRun} from './helpers/built-cli.js';
import {loopbackServer} from './helpers/loopback.js';

/**
 * The trickling server of cli-deadlines.test.ts, in a file of its own: it runs towards a minute by
 * design, and Node 22's runner caps a whole file, not each test, at the suite's --test-timeout
 * (60 s); beside the file's other tests it took 55 s on a loaded machine.
 *
 * A server that trickles its answer one byte a second used to cost 602 s before exit 5 (a
 * 120 s body deadline, five tries). A one-shot read now gives up inside 60 s: a 20 s body
 * deadline, and no try started that could not end inside the call's 45 s.
 *
 * Checked by what the server saw (how many tries) and what the CLI says, never by the clock: a
 * child process's start-up and timers stretch on a loaded machine. Each test's own timeout (and
 * runCli's) fails a CLI that does not give up at all.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-deadline-'));
after(() => rmSync(home, {recursive: true, force: true}));

function cli(args: string[], key = 'k-123456', onStdout?: (stdout: string) => void): Promise<CliRun> {
	return runCli(args, {home, env: {OPENHANDS_API_KEY: key}, timeoutMs: 120_000, onStdout});
}

// By design it runs towards a minute (the body deadline), 41 s beside two busy loops: a timeout of its own.
test('a server trickling 1 byte/s ends a one-shot read with exit 5 after at most two tries of 20 s', {timeout: 120_000}, async (t) => {
	let requests = 0;
	const base = await loopbackServer(t, (_request, response) => {
		requests++;
		response.writeHead(200, {'content-type': 'application/json'});
		response.write('{');
		const timer = setInterval(() => response.write(' '), 1000);
		response.on('close', () => clearInterval(timer));
	});
	const started = Date.now();
	const run = await cli(['conversations', '--base-url', base]);
	const seconds = (Date.now() - started) / 1000;
	t.diagnostic(`exit ${run.code} after ${seconds.toFixed(1)} s, ${requests} requests`);
	assert.equal(run.code, 5, run.stderr);
	// Each try stops reading at the 20 s body deadline; a second one ends inside the call's 45 s, a
	// third could not, so it is not started (the old 120 s deadline and five tries took 602 s).
	const reading = /too slowly \(.* in (\d+) s\)/.exec(run.stderr);
	assert.ok(reading && Number(reading[1]) <= 20, `a try stopped reading within the 20 s body deadline: ${run.stderr}`);
	assert.ok(requests >= 1 && requests <= 2, `${requests} tries`);
});
