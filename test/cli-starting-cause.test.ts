import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {startingSandboxDetail} from '../source/simulator/seed-world.js';
import {runCli} from './helpers/built-cli.js';

/**
 * A sandbox left STARTING (the simulator's `startingSandboxes`, asked for long ago, never
 * scheduled) is a cause in `conversations --json`: `sandbox:STARTING:<status_detail>`.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-starting-'));
let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 5, conversations: 16, startingSandboxes: 2});
});
after(async () => {
	await sim.close();
	rmSync(home, {recursive: true, force: true});
});

test('conversations --json: each conversation of a sandbox STARTING for over 10 minutes has the cause, with the runtime\'s reason', {timeout: 60_000}, async () => {
	const run = await runCli(['conversations', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 40_000});
	assert.equal(run.code, 0, run.stderr);
	const rows = JSON.parse(run.stdout) as Array<{id: string; sandbox_status: string; cause: {key: string; kind: string; sandbox_status?: string; detail?: string | null} | null}>;
	const starting = rows.filter((row) => row.sandbox_status === 'STARTING');
	assert.equal(starting.length, 2);
	for (const row of starting) assert.deepEqual({key: row.cause?.key, kind: row.cause?.kind, detail: row.cause?.detail}, {key: `sandbox:STARTING:${startingSandboxDetail}`, kind: 'sandbox_down', detail: startingSandboxDetail});
	// The others are not said to be starting.
	assert.ok(rows.filter((row) => row.sandbox_status !== 'STARTING').every((row) => !row.cause?.key.startsWith('sandbox:STARTING')));
});
