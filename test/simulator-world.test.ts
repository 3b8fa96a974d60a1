import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {test} from 'node:test';
import {respondToConfirmation} from '../source/simulator/agent-runtime.js';
import {startSimulator} from '../source/simulator/server.js';
import {scenarioNames} from '../source/simulator/world-types.js';
import {parseEvent} from '../source/wire/schemas/events.js';
import {app, startTestSimulator, waitUntil, withoutTime, type Json} from './helpers/sim-harness.js';

test('determinism: the same seed and steps give the same world (ids, contents, order)', async (t) => {
	const [a, b, other] = await Promise.all([7, 7, 8].map((seed) => startSimulator({seed, tickMs: 0, startTaskPhaseMs: 5})));
	t.after(() => Promise.all([a, b, other].map((sim) => sim!.close())));
	const snapshot = (sim: typeof a) =>
		sim!.world.conversationList().map((conversation) => ({
			id: conversation.id,
			title: conversation.title,
			scenario: conversation.scenario,
			sandbox: sim!.world.findSandbox(conversation.sandboxId)!.sessionApiKey,
			events: sim!.world.events(conversation).map(withoutTime),
		}));
	a!.step(12);
	b!.step(12);
	a!.world.sendMessage(a!.world.conversationList()[0]!, 'Also run the linter.');
	b!.world.sendMessage(b!.world.conversationList()[0]!, 'Also run the linter.');
	a!.step(5);
	b!.step(5);
	assert.deepEqual(snapshot(a), snapshot(b));
	assert.notDeepEqual(snapshot(other).map((row) => row.id), snapshot(a).map((row) => row.id));
});

test('10,000 conversations start and search pages without building their histories', async (t) => {
	// What keeps it fast, counted: only the running conversations get an agent and a history, at
	// start and after paging to the end. (How fast it starts is the bench's: a time limit here
	// failed on a loaded machine.)
	const sim = await startTestSimulator(t, {conversations: 10_000});
	const built = () => sim.world.conversationList().filter((conversation) => conversation.agent !== null).length;
	const running = sim.world.conversationList().filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING').length;
	t.diagnostic(`${built()} built at start, ${running} running`);
	assert.ok(running > 0 && running <= 20, `${running} running`);
	assert.ok(built() <= running, `only running conversations were built at start (${built()})`);
	const first = await app(sim, '/api/v1/app-conversations/search');
	assert.equal(first.body.items.length, 100);
	assert.equal((await app(sim, '/api/v1/app-conversations/count')).body, 10_000);
	const deep = await app(sim, '/api/v1/app-conversations/search?page_id=9950');
	assert.equal(deep.body.items.length, 50);
	assert.equal(deep.body.next_page_id, null);
	assert.ok(built() <= running, `paging built no history (${built()} built)`);
});

test('the seeded population covers every scenario, status and event kind, and all of it parses', async (t) => {
	// As the demo seeds it: with the triage cases (rate limit, quota, auth, spender).
	const sim = await startTestSimulator(t, {triageCases: true});
	const world = sim.world;
	const rows = world.conversationList();
	assert.deepEqual(new Set(rows.map((row) => row.scenario)), new Set(scenarioNames));
	const sandboxStatuses = rows.map((row) => world.findSandbox(row.sandboxId)!.status);
	assert.ok(sandboxStatuses.filter((status) => status === 'PAUSED').length >= 3);
	assert.ok(sandboxStatuses.includes('ERROR') && sandboxStatuses.includes('MISSING'));
	const live = rows.filter((row) => world.findSandbox(row.sandboxId)!.status === 'RUNNING');
	assert.deepEqual(new Set(live.map((row) => row.scenario)), new Set(scenarioNames), 'every scenario is live in the demo');
	assert.deepEqual(
		new Set(live.map((row) => (world.agent(row), row.executionStatus))),
		new Set(['running', 'waiting_for_confirmation', 'stuck', 'error', 'finished']),
	);

	sim.step(60);
	for (const row of live) if (row.executionStatus === 'waiting_for_confirmation') respondToConfirmation(world, row, true);
	sim.step(20);
	const kinds = new Set<string>();
	for (const row of rows) {
		for (const event of world.events(row)) {
			const parsed = parseEvent(JSON.parse(JSON.stringify(event)));
			assert.notEqual(parsed.kind, 'UnknownEvent', `${event.kind} parses: ${JSON.stringify(parsed).slice(0, 200)}`);
			kinds.add(event.kind);
			const action = (event as Json).action?.kind;
			const observation = (event as Json).observation?.kind;
			if (action) kinds.add(action);
			if (observation) kinds.add(observation);
			if (event.kind === 'UserRejectObservation') kinds.add(`reject:${String(event.rejection_source)}`);
			if (event.kind === 'ConversationStateUpdateEvent') kinds.add(`state:${String(event.key)}`);
		}
	}
	const required = [
		'SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent', 'AgentErrorEvent', 'UserRejectObservation',
		'ConversationErrorEvent', 'Condensation', 'CondensationRequest', 'CondensationSummaryEvent', 'ConversationStateUpdateEvent',
		'PauseEvent', 'HookExecutionEvent', 'LLMCompletionLogEvent', 'TokenEvent', 'TerminalAction', 'TerminalObservation',
		'FileEditorAction', 'FileEditorObservation', 'TaskTrackerAction', 'TaskTrackerObservation', 'BrowserNavigateAction',
		'BrowserClickAction', 'BrowserObservation', 'ThinkAction', 'ThinkObservation', 'FinishAction', 'FinishObservation',
		'ExecuteBashAction', 'ExecuteBashObservation', 'reject:user', 'reject:hook', 'state:execution_status', 'state:stats',
	];
	for (const kind of required) assert.ok(kinds.has(kind), `missing ${kind}`);
	const stuck = live.find((row) => row.scenario === 'stuck')!;
	const calls = world.events(stuck).filter((event) => event.kind === 'ActionEvent').map((event) => JSON.stringify((event as Json).tool_call.arguments));
	assert.ok(calls.filter((call) => call === calls.at(-1)).length >= 4, 'the stuck agent repeats the same call');
});

test('live mode ticks agents without step(); long-runners always progress', async (t) => {
	const sim = await startTestSimulator(t, {tickMs: 15});
	const runner = sim.world.conversationList().find((row) => row.scenario === 'long-runner')!;
	const before = sim.world.events(runner).length;
	await waitUntil(() => sim.world.events(runner).length >= before + 4, 3000, 'long-runner progress');
});

test('agent-tui simulator: prints where it listens and stops cleanly on SIGTERM', async () => {
	const child = spawn(process.execPath, ['--import', 'tsx', '-e', "Promise.all([import('./source/simulator/main.ts'), import('./source/commands/signals.ts')]).then(([m, s]) => m.runSimulatorCommand({port: 0, conversations: 5}, s.onStopSignal))"], {
		cwd: new URL('..', import.meta.url),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += String(chunk)));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	await waitUntil(() => output.includes('OPENHANDS_API_KEY='), 10_000, 'the banner');
	const baseUrl = /listening on (http:\/\/\S+)/.exec(output)![1]!;
	assert.match(output, /API key: demo-key/);
	assert.match(output, new RegExp(`OPENHANDS_BASE_URL=${baseUrl} OPENHANDS_API_KEY=demo-key`));
	const count = await fetch(`${baseUrl}/api/v1/app-conversations/count`, {headers: {authorization: 'Bearer demo-key'}}).catch((error: unknown) => error);
	// Stopped before any verdict: a failed assertion must not leave the server running.
	child.kill('SIGTERM');
	assert.ok(count instanceof Response, String(count));
	// The five seeded, plus the fleet's shapes (seed-fleet.ts): three sub-agents, three troubled sandboxes' runs.
	assert.equal(await count.json(), 5 + 6);
	assert.equal(await exited, 0);
	assert.match(output, /stopped/);
});
