import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {AgentClient, type EventSearchParams} from '../source/wire/agent-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {Secret} from '../source/wire/secret.js';
import {runCli} from './helpers/built-cli.js';

/**
 * `events` and `start` as a user runs them: every page, filters, order, following a live
 * conversation to its end, starting one with its phases, and the failure codes.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-cli-'));
after(() => rmSync(home, {recursive: true, force: true}));

type Run = {code: number | null; stdout: string; stderr: string};

let still: Simulator;
let live: Simulator;
before(async () => {
	// `still` never ticks, so a history can be compared with the server's; `live` runs fast.
	[still, live] = await Promise.all([
		startSimulator({port: 0, tickMs: 0, seed: 3, conversations: 30}),
		startSimulator({port: 0, tickMs: 15, seed: 5, conversations: 12, startTaskPhaseMs: 30, sandboxTransitionMs: 30}),
	]);
	// Run the agents ahead so the long-running one has several pages of history.
	still.step(150);
});
after(async () => {
	await Promise.all([still.close(), live.close()]);
	await closeHttpAgent();
});

function cli(sim: Pick<Simulator, 'apiKey' | 'baseUrl'>, args: string[]): Promise<Run> {
	return runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 40_000});
}

/** A conversation whose agent server is up, preferring a long history (several pages). */
function runningConversation(sim: Simulator, minEvents = 0) {
	const candidates = sim.world
		.conversationList()
		.filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING')
		.map((conversation) => ({conversation, events: sim.world.events(conversation).length}))
		.sort((a, b) => b.events - a.events);
	const found = candidates.find((candidate) => candidate.events >= minEvents);
	assert.ok(found, `a running conversation with ${minEvents}+ events`);
	return found.conversation;
}

/** The server's own answer, through the agent API (the same one the CLI uses). */
async function serverEvents(sim: Simulator, id: string, params: EventSearchParams = {}) {
	const conversation = sim.world.findConversation(id)!;
	const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
	const client = new AgentClient({baseUrl: `${sim.baseUrl}/runtime/${sandbox.number}`, conversationId: id, sessionApiKey: new Secret(sandbox.sessionApiKey)});
	const events = [];
	for await (const event of client.allEvents(params)) events.push(event);
	return events;
}

type JsonEvent = {id: string; kind: string; source: string; timestamp: string};

describe('events', {concurrency: true}, () => {
	test('--json: one array of every event across all pages, as the server lists them', async () => {
		const conversation = runningConversation(still, 101);
		const run = await cli(still, ['events', conversation.id, '--json']);
		assert.equal(run.code, 0, run.stderr);
		const events = JSON.parse(run.stdout) as JsonEvent[];
		const expected = await serverEvents(still, conversation.id);
		assert.ok(expected.length > 100, 'more than one page');
		assert.deepEqual(
			events.map((event) => event.id),
			expected.map((event) => event.id),
		);
		assert.doesNotMatch(run.stdout, /"encrypted_content":"(?!\[hidden\])/);
		const sandbox = still.world.findSandbox(conversation.sandboxId)!;
		assert.ok(!run.stdout.includes(sandbox.sessionApiKey) && !run.stdout.includes(still.apiKey));
	});

	test('--kind ActionEvent (and the dashed id form), --desc', async () => {
		const conversation = runningConversation(still, 20);
		const dashed = conversation.id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
		const [actions, desc] = await Promise.all([cli(still, ['events', dashed, '--kind', 'actionevent', '--json']), cli(still, ['events', conversation.id, '--desc', '--json'])]);
		assert.equal(actions.code, 0, actions.stderr);
		const onlyActions = JSON.parse(actions.stdout) as JsonEvent[];
		const expected = await serverEvents(still, conversation.id, {kind: 'ActionEvent'});
		assert.ok(onlyActions.length > 0);
		assert.ok(onlyActions.every((event) => event.kind === 'ActionEvent'));
		assert.deepEqual(
			onlyActions.map((event) => event.id),
			expected.map((event) => event.id),
		);
		const newestFirst = JSON.parse(desc.stdout) as JsonEvent[];
		assert.deepEqual(
			newestFirst.map((event) => event.id),
			(await serverEvents(still, conversation.id, {sortOrder: 'TIMESTAMP_DESC'})).map((event) => event.id),
		);
		assert.ok(newestFirst[0]!.timestamp >= newestFirst.at(-1)!.timestamp);
	});

	test('human form: one sanitized line per event, time source kind summary', async () => {
		const conversation = runningConversation(still, 20);
		const run = await cli(still, ['events', conversation.id, '--source', 'agent']);
		assert.equal(run.code, 0, run.stderr);
		const lines = run.stdout.trimEnd().split('\n');
		const expected = await serverEvents(still, conversation.id, {source: 'agent'});
		assert.equal(lines.length, expected.length);
		for (const line of lines) assert.match(line, /^(\d\d:\d\d:\d\d|--:--:--) {2}agent {8}\S/);
		assert.ok(lines.some((line) => / ActionEvent +\S/.test(line)));
		assert.doesNotMatch(run.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
	});

	test('--follow --json: history then live NDJSON, exit 0 when the conversation ends', async () => {
		// A coding run in progress: its script ends (finished) after a few dozen fast ticks.
		const target = live.world
			.conversationList()
			.filter((candidate) => live.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'coding')
			// The execution status is known once the history is built: events() builds it.
			.find((candidate) => live.world.events(candidate).length > 0 && candidate.executionStatus === 'running');
		assert.ok(target, 'the seed has a running coding conversation');
		const historyBefore = live.world.events(target).length;
		const run = await cli(live, ['events', target.id, '--follow', '--json']);
		assert.equal(run.code, 0, run.stderr);
		const events = run.stdout
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as JsonEvent & {key?: string; value?: unknown});
		assert.ok(events.length > historyBefore, 'live events followed the history');
		assert.equal(new Set(events.map((event) => event.id)).size, events.length, 'no duplicates');
		assert.deepEqual(
			events.map((event) => event.id),
			live.world.events(target).slice(0, events.length).map((event) => event.id),
			'in order, no gaps',
		);
		const last = events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status').at(-1);
		assert.equal(last?.value, 'finished');
		assert.match(run.stderr, /conversation ended: finished/);
	});
});

describe('start', {concurrency: true}, () => {
	test('phases on stderr as they happen, then the new id on stdout', async () => {
		const run = await cli(live, ['start', '--message', 'Add a health check endpoint', '--repo', 'acme/api', '--plugin', 'github:acme/plugins@v1:tools/lint']);
		assert.equal(run.code, 0, run.stderr);
		const id = run.stdout.trim();
		assert.match(id, /^[0-9a-f]{32}$/);
		assert.ok(live.world.findConversation(id));
		const phases = [...run.stderr.matchAll(/^agent-tui: start: ([A-Z_]+)/gm)].map((match) => match[1]);
		assert.equal(phases[0], 'WORKING');
		assert.equal(phases.at(-1), 'READY');
		assert.ok(phases.includes('WAITING_FOR_SANDBOX') && phases.includes('STARTING_CONVERSATION'));
	});

	test('--json: NDJSON start-task snapshots ending READY with the conversation id', async () => {
		const run = await cli(live, ['start', '--message', 'Write docs', '--json']);
		assert.equal(run.code, 0, run.stderr);
		const tasks = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as {status: string; app_conversation_id?: string});
		assert.equal(tasks[0]!.status, 'WORKING');
		assert.equal(tasks.at(-1)!.status, 'READY');
		assert.match(tasks.at(-1)!.app_conversation_id ?? '', /^[0-9a-f]{32}$/);
	});

	test('--wait: follows the new conversation and exits 0 when it finished', async () => {
		const run = await cli(live, ['start', '--message', 'Fix the flaky test scenario:coding', '--wait']);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout.trim(), /^[0-9a-f]{32}$/, 'stdout is the id alone');
		assert.match(run.stderr, /conversation ended: finished/);
	});

	test('a start that ends in ERROR: its detail and exit 6', async () => {
		const run = await cli(live, ['start', '--message', 'please FAIL_START', '--repo', 'acme/missing']);
		assert.equal(run.code, 6, run.stderr);
		assert.equal(run.stdout, '');
		assert.match(run.stderr, /^agent-tui: start failed: Failed to prepare acme\/missing: git clone exited with status 128/m);
	});

	test('a start without --message is a usage error', async () => {
		const run = await cli(live, ['start', '--repo', 'acme/api']);
		assert.equal(run.code, 2);
		assert.match(run.stderr, /--message/);
	});

	test('a V1 server without stream-start: the plain create and its task, polled; never the removed V0 call', async (t) => {
		// A simulator of its own: the other start tests run beside this one.
		const older = await startSimulator({port: 0, tickMs: 0, seed: 6, conversations: 3, startTaskPhaseMs: 100});
		t.after(() => older.close());
		older.faults.noStreamStart(true);
		const run = await cli(older, ['start', '--message', 'hi', '--repo', 'acme/api']);
		assert.equal(run.code, 0, run.stderr);
		const id = run.stdout.trim();
		assert.match(id, /^[0-9a-f]{32}$/);
		assert.ok(older.world.findConversation(id), 'the conversation exists');
		assert.match(run.stderr, /no \/api\/v1\/app-conversations\/stream-start; starting with POST/);
		assert.match(run.stderr, /start: READY/);
		assert.equal(older.stats.byRoute['POST /api/v1/app-conversations'], 1);
		assert.equal(older.stats.byRoute['POST /api/conversations'] ?? 0, 0, 'never the V0 call');
	});
});
