import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {subAgentTitles, unknownDetail} from '../source/simulator/seed-fleet.js';
import {errorSandboxDetail} from '../source/simulator/seed-world.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli, startCli} from './helpers/built-cli.js';
import {stopChild} from './helpers/run-process.js';
import {eventually} from './helpers/eventually.js';

/**
 * The headless commands against the simulator's 2026 fleet (fleetShapes), as a script runs the
 * built CLI: sub-conversations listed with their parent (JSON: parent_conversation_id; the table:
 * under their parent), sandboxes' reasons (status_detail) in `sandboxes` and `conversations`, and
 * `watch --json` naming a transition's parent and its sandbox's reason.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-cli-fleet-'));
after(() => rmSync(home, {recursive: true, force: true}));

let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 4, sandboxTransitionMs: 50, fleetShapes: true});
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
});

const cli = (args: string[]) => runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 30_000});

type Row = {id: string; title: string; parent_conversation_id: string | null; sub_conversation_ids: string[]; sandbox_status: string; sandbox_status_detail: string | null; cause: {key: string; kind: string; detail?: string | null; since?: string} | null};

describe('headless: sub-agents and sandboxes in trouble', {concurrency: true}, () => {
	test('conversations --json: every sub-conversation, with parent_conversation_id; sandbox_status_detail where the sandbox gave one', async () => {
		const run = await cli(['conversations', '--json']);
		assert.equal(run.code, 0, run.stderr);
		const rows = JSON.parse(run.stdout) as Row[];
		assert.equal(rows.length, sim.world.conversationList().length, 'the children too: the search was asked for them');
		const children = rows.filter((row) => row.parent_conversation_id);
		assert.deepEqual(children.map((row) => row.title).sort(), Object.values(subAgentTitles).sort());
		const parent = rows.find((row) => row.id === children[0]!.parent_conversation_id)!;
		assert.deepEqual([...parent.sub_conversation_ids].sort(), children.map((row) => row.id).sort());
		assert.ok(rows.every((row) => 'sandbox_status_detail' in row), 'the field is always there (null when none)');
		assert.deepEqual(rows.filter((row) => row.sandbox_status === 'ERROR').map((row) => row.sandbox_status_detail), [errorSandboxDetail]);
		// Its cause says it too, grouped as the dashboard's queue groups it.
		assert.deepEqual(rows.filter((row) => row.sandbox_status === 'ERROR').map((row) => row.cause), [{key: `sandbox:ERROR:${errorSandboxDetail}`, kind: 'sandbox_down', sandbox_status: 'ERROR', detail: errorSandboxDetail, since: rows.find((row) => row.sandbox_status === 'ERROR')!.cause!.since}]);
		assert.deepEqual(rows.filter((row) => row.sandbox_status === 'UNKNOWN').map((row) => row.sandbox_status_detail), [unknownDetail]);
		assert.ok(rows.filter((row) => row.sandbox_status === 'RUNNING').every((row) => row.sandbox_status_detail === null));
	});

	test('conversations: sub-agents under their parent (└), a sandbox in trouble with its reason', async () => {
		const run = await cli(['conversations']);
		assert.equal(run.code, 0, run.stderr);
		const lines = run.stdout.split('\n');
		const waiting = lines.findIndex((line) => line.includes(`└ ${subAgentTitles.waiting}`));
		assert.ok(waiting > 1, run.stdout);
		// The parent right above its sub-agents (the newest first), each marked └.
		assert.ok(!lines[waiting - 1]!.includes('└ ') && !lines[waiting - 1]!.startsWith('ID '), run.stdout);
		assert.ok(lines[waiting + 1]!.includes('└ ') && lines[waiting + 2]!.includes('└ '), run.stdout);
		assert.equal(lines.filter((line) => line.includes('└ ')).length, 3);
		assert.match(run.stdout, /✗ error: ImagePullBackOff/);
		assert.match(run.stdout, /\? unknown: runtime provider unavailable/);
		assert.match(run.stdout, /◐ starting: 0\/6 nodes are available: insufficient kvm/);
	});

	test('sandboxes: a REASON column; UNKNOWN is its own word', async () => {
		const run = await cli(['sandboxes']);
		assert.equal(run.code, 0, run.stderr);
		const [header, ...rows] = run.stdout.trim().split('\n');
		assert.match(header!, /STATUS +REASON +SPEC/);
		assert.ok(rows.some((line) => /✗ error +ImagePullBackOff/.test(line)), run.stdout);
		assert.ok(rows.some((line) => /\? unknown +runtime provider unavailable/.test(line)), run.stdout);
		assert.ok(rows.some((line) => /● running +— /.test(line)), 'no reason: a dash');
	});
});

test('watch --json: a transition names its parent and its sandbox\'s reason', {timeout: 90_000}, async (t) => {
	const cli = startCli(['watch', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	t.after(() => stopChild(cli.child));
	const until = (predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 30_000, pollMs: 100, detail: cli.detail});
	await until(() => cli.stderr.includes('watching'), 'the baseline');
	// The provider fails the sandbox the parent and its sub-agents share.
	const waiting = sim.world.conversationList().find((row) => row.title === subAgentTitles.waiting)!;
	sim.world.setSandboxStatus(sim.world.findSandbox(waiting.sandboxId)!, 'ERROR', 'OOMKilled');
	type Line = {id: string; which: string; to: string; parent_conversation_id: string | null; sandbox_status_detail: string | null; cause: {key: string; kind: string; detail?: string | null} | null};
	const lines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	await until(() => lines().filter((line) => line.which === 'sandbox' && line.to === 'error').length >= 4, 'the four conversations of that sandbox');
	const errors = lines().filter((line) => line.which === 'sandbox' && line.to === 'error');
	assert.ok(errors.every((line) => line.sandbox_status_detail === 'OOMKilled'), cli.stdout);
	// The queue's cause says the reason too, where the sandbox is what the conversation is down by.
	const down = errors.filter((line) => line.cause?.kind === 'sandbox_down');
	assert.ok(down.length > 0, cli.stdout);
	assert.ok(down.every((line) => line.cause!.detail === 'OOMKilled' && line.cause!.key === 'sandbox:ERROR:OOMKilled'), cli.stdout);
	assert.equal(errors.filter((line) => line.parent_conversation_id === waiting.parentId).length, 3, 'the three sub-agents name their parent');
	assert.equal(errors.filter((line) => line.parent_conversation_id === null).length, 1, 'the parent names none');
	cli.child.kill('SIGINT');
	// Ended by ctrl-c: 130, as every command (commands/signals.ts).
	assert.equal(await cli.exited, 130, cli.stderr);
});
