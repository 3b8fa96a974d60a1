import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {causeOf} from '../source/state/causes.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {normalizeId} from '../source/wire/ids.js';
import {startSimulator} from '../source/simulator/server.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli, startCli} from './helpers/built-cli.js';
import {stopChild} from './helpers/run-process.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * A model re-sending the same call is found for every running conversation, not only the one
 * whose timeline is open (issue 41, item 5). The simulator's scripted stuck loop, seeded mid-loop
 * (`loopingStuck`): running, its newest calls the same apply_patch three times over. Nobody opens
 * it; the dashboard's rows (what the `!` queue groups) and `conversations --json` say `repeating`,
 * and a running conversation that does not repeat itself does not.
 */

const simulatorOptions = {seed: 3, tickMs: 0, conversations: 12, loopingStuck: true} as const;

test('the store flags a looping conversation it never opened as repeating; one that does not loop is not', {timeout: 60_000}, async (t) => {
	const {sim, store} = await dashboardOnSimulator(t, simulatorOptions, {dashboard: {repeatScanMs: 50}});
	const looping = sim.world.conversationList().find((conversation) => conversation.scenario === 'stuck')!;
	const key = normalizeId(looping.id);
	const repeatingOf = (snapshot: DashboardSnapshot, conversation: string) => snapshot.conversations.get(conversation)?.attention.find((reason) => reason.kind === 'repeating');
	const flagged = await waitForSnapshot(store, (snapshot) => repeatingOf(snapshot, key) !== undefined, 'the looping conversation flagged', 30_000);
	assert.equal(flagged.timeline, null, 'no timeline was opened');
	assert.deepEqual(repeatingOf(flagged, key), {kind: 'repeating', count: 3, tool: 'apply_patch'});
	// The `!` queue groups rows by this cause.
	assert.equal(causeOf(flagged.conversations.get(key)!)?.kind, 'repeating');
	// Every running conversation is read, round-robin: the coding one too, and it is not flagged.
	const other = [...flagged.conversations.values()].find((row) => row.key !== key && row.agentStatus === 'running' && row.conversation.sandbox_status === 'RUNNING');
	assert.ok(other, 'another running conversation');
	const codingKey = other.key;
	const coding = {id: String(other.conversation.id)};
	const tailReads = (id: string) => sim.stats.log.filter((entry) => entry.path.includes(`/conversations/${id}/events/search`) && entry.path.includes('TIMESTAMP_DESC')).length;
	await eventually(() => tailReads(coding.id), 'the other running conversation\'s newest events read too', {timeoutMs: 30_000});
	assert.ok(tailReads(looping.id) > 0, 'the looping one was read the same way');
	assert.equal(repeatingOf(store.getSnapshot(), codingKey), undefined, 'a conversation that does not loop is not flagged');
});

test('conversations --json: the looping conversation\'s cause is repeating; the other running ones are not', {timeout: 90_000}, async (t) => {
	const sim = await startSimulator({port: 0, ...simulatorOptions});
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-repeat-'));
	t.after(async () => {
		await sim.close();
		await closeHttpAgent();
		rmSync(home, {recursive: true, force: true});
	});
	const looping = sim.world.conversationList().find((conversation) => conversation.scenario === 'stuck')!;
	const run = await runCli(['conversations', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 60_000});
	assert.equal(run.code, 0, run.stderr);
	const rows = JSON.parse(run.stdout) as Array<{id: string; execution_status: string | null; sandbox_status: string; cause: {kind: string; key: string} | null}>;
	const row = rows.find((candidate) => normalizeId(candidate.id) === normalizeId(looping.id))!;
	assert.equal(row.execution_status, 'running');
	assert.equal(row.cause?.key, 'repeating', JSON.stringify(row.cause));
	const otherRunning = rows.filter((candidate) => candidate !== row && candidate.execution_status === 'running' && candidate.sandbox_status === 'RUNNING');
	assert.ok(otherRunning.length > 0, 'other running conversations');
	assert.ok(otherRunning.every((candidate) => candidate.cause?.kind !== 'repeating'), JSON.stringify(otherRunning.map((candidate) => candidate.cause)));
	// The table says it too, on the looping row only.
	const table = await runCli(['conversations', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 60_000});
	assert.equal(table.code, 0, table.stderr);
	const lines = table.stdout.split('\n');
	assert.match(lines.find((line) => line.startsWith(normalizeId(looping.id).slice(0, 8))) ?? '', /▸ running · repeating \S+ \d+×/);
	assert.equal(lines.filter((line) => /repeating/.test(line)).length, 1, table.stdout);
});

test('watch --json: a conversation found looping is said once, as a change of its cause to repeating', {timeout: 150_000}, async (t) => {
	const sim = await startSimulator({port: 0, ...simulatorOptions});
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-repeat-watch-'));
	const cli = startCli(['watch', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	t.after(async () => {
		await stopChild(cli.child);
		await sim.close();
		await closeHttpAgent();
		rmSync(home, {recursive: true, force: true});
	});
	const looping = sim.world.conversationList().find((conversation) => conversation.scenario === 'stuck')!;
	type Line = {which: string; id: string; from: string | null; to: string | null; cause: {kind: string} | null};
	const lines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	const repeating = () => lines().filter((line) => line.which === 'cause' && line.to === 'repeating');
	await eventually(() => repeating().length > 0, 'the repeating line', {timeoutMs: 120_000, pollMs: 100, detail: cli.detail});
	const line = repeating()[0]!;
	assert.equal(normalizeId(line.id), normalizeId(looping.id));
	assert.equal(line.to, 'repeating');
	assert.equal(line.cause?.kind, 'repeating');
	cli.child.kill('SIGINT');
	assert.equal(await cli.exited, 130, cli.stderr);
	assert.equal(repeating().length, 1, 'said once, not at every poll');
});
