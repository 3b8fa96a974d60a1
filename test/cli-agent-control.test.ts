import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {runContinue, runInterrupt} from '../source/commands/agent-control.js';
import {exitCodeFor, ExitCode} from '../source/commands/exit-codes.js';
import type {Io} from '../source/commands/io.js';
import type {Server} from '../source/commands/server.js';
import {runApprove, runMessage, runReject} from '../source/commands/triage.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli} from './helpers/built-cli.js';
import {commandOn} from './helpers/command-server.js';
import {failure} from './helpers/outcomes.js';

/**
 * `interrupt`, `run`, `approve`, `reject` and `message` against the simulator over real HTTP:
 * one agent stops and goes on, its sandbox and its neighbours are untouched, older servers get
 * `/pause`, 409 means "already running", and a stopped sandbox is refused without a resume.
 */

let sim: Simulator;
before(async () => {
	// No ticking: statuses change only through the requests under test.
	sim = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 40});
	sim.step(20);
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
});

function harness(simulator: Simulator = sim): {server: Server; io: Io; out: () => string} {
	const {server, io, out} = commandOn(simulator);
	return {server, io, out: () => out().toString()};
}

/**
 * A running conversation with neighbours: seeded sandboxes hold one conversation each, so the
 * test moves two other live conversations into its sandbox (as the service does when several
 * conversations are started in one sandbox).
 */
function runningWithNeighbour(): {conversation: SimConversation; neighbours: SimConversation[]} {
	const live = sim.world.conversationList().filter((row) => sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	live.forEach((row) => sim.world.agent(row));
	const movable = live.filter((row) => row.executionStatus !== 'waiting_for_confirmation');
	const target = movable.find((row) => !used.has(row.id));
	assert.ok(target, 'a live conversation not used yet');
	used.add(target.id);
	if (target.executionStatus !== 'running') sim.world.sendMessage(target, 'carry on', true);
	const sandbox = sim.world.findSandbox(target.sandboxId)!;
	const neighbours = movable.filter((row) => row !== target).slice(0, 2);
	// One neighbour is working, so "untouched" covers an agent in the middle of a run.
	if (neighbours[0]!.executionStatus !== 'running') sim.world.sendMessage(neighbours[0]!, 'keep going', true);
	for (const neighbour of neighbours) {
		const from = sim.world.findSandbox(neighbour.sandboxId)!;
		from.conversationIds = from.conversationIds.filter((id) => id !== neighbour.id);
		neighbour.sandboxId = sandbox.id;
		sandbox.conversationIds.push(neighbour.id);
	}
	assert.equal(target.executionStatus, 'running');
	return {conversation: target, neighbours};
}
const used = new Set<string>();

const route = (action: string) => `POST /runtime/:n/api/conversations/:id/${action}`;
const count = (key: string) => sim.stats.byRoute[key] ?? 0;

describe('interrupt and run', () => {
	test('interrupt pauses one agent; its sandbox and neighbours are untouched; run starts it again', async () => {
		const {conversation, neighbours} = runningWithNeighbour();
		const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
		const before = neighbours.map((neighbour) => neighbour.executionStatus);
		const interrupts = count(route('interrupt'));
		const {server, io, out} = harness();
		assert.equal(await runInterrupt(server, io, conversation.id), 0);
		assert.equal(count(route('interrupt')), interrupts + 1, 'through /interrupt');
		assert.equal(conversation.executionStatus, 'paused');
		assert.equal(sandbox.status, 'RUNNING');
		assert.deepEqual(neighbours.map((neighbour) => neighbour.executionStatus), before);
		assert.equal(count('POST /api/v1/sandboxes/:id/pause'), 0, 'no sandbox paused');
		assert.match(out(), /interrupted .* its agent is paused; sandbox .* and its other conversations keep running/);

		// Again, while paused: said, and no second request.
		assert.equal(await runInterrupt(server, io, conversation.id), 0);
		assert.match(out(), /is paused: its agent is not working, nothing to interrupt \(continue it with: agent-tui run/);
		assert.equal(count(route('interrupt')), interrupts + 1);

		assert.equal(await runContinue(server, io, conversation.id.slice(0, 10)), 0);
		assert.equal(conversation.executionStatus, 'running');
		assert.match(out(), /is running again/);
		await server.close();
	});

	test('run on a running conversation: exit 0, "already running" (the server said 409)', async () => {
		const {conversation} = runningWithNeighbour();
		const runs = count(route('run'));
		const {server, io, out} = harness();
		assert.equal(await runContinue(server, io, conversation.id), 0);
		assert.equal(count(route('run')), runs + 1);
		assert.match(out(), /already running; nothing to do/);
		assert.equal(conversation.executionStatus, 'running');
		await server.close();
	});

	for (const status of [404, 405] as const) {
		test(`a server answering ${status} to /interrupt gets /pause`, async () => {
			const {conversation, neighbours} = runningWithNeighbour();
			const before = neighbours.map((neighbour) => neighbour.executionStatus);
			const pauses = count(route('pause'));
			sim.faults.interruptMissing(status);
			try {
				const {server, io, out} = harness();
				assert.equal(await runInterrupt(server, io, conversation.id), 0);
				assert.equal(count(route('pause')), pauses + 1, 'fell back to /pause');
				assert.equal(conversation.executionStatus, 'paused');
				assert.deepEqual(neighbours.map((neighbour) => neighbour.executionStatus), before);
				assert.match(out(), /used \/pause/);
				await server.close();
			} finally {
				sim.faults.interruptMissing(0);
			}
		});
	}

	test('a conversation whose sandbox is not RUNNING: refused, exit 5, nothing resumed or sent', async () => {
		const conversation = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'PAUSED');
		assert.ok(conversation, 'a conversation in a paused sandbox');
		const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
		const before = {...sim.stats.byRoute};
		const {server, io} = harness();
		for (const run of [() => runInterrupt(server, io, conversation.id), () => runContinue(server, io, conversation.id)]) {
			const error = await failure(run());
			assert.match(error.message, /sandbox .* is PAUSED, not RUNNING.*Nothing was changed; resume it first with: agent-tui resume/);
			assert.equal(exitCodeFor(error), ExitCode.server);
		}
		assert.equal(sandbox.status, 'PAUSED');
		assert.equal(count('POST /api/v1/sandboxes/:id/resume'), before['POST /api/v1/sandboxes/:id/resume'] ?? 0, 'no resume requested');
		const agentCalls = Object.keys(sim.stats.byRoute).filter((key) => key.startsWith('POST /runtime') && sim.stats.byRoute[key] !== before[key]);
		assert.deepEqual(agentCalls, []);
		// The positive half: the look-up itself did reach the server.
		assert.ok(count('GET /api/v1/app-conversations') > (before['GET /api/v1/app-conversations'] ?? 0));
		await server.close();
	});
});

test('the demo world (sharedSandboxes): two agents in one sandbox; interrupting one leaves the other at work', async () => {
	const shared = await startSimulator({port: 0, tickMs: 0, seed: 1, conversations: 24, sharedSandboxes: true});
	try {
		const sandbox = shared.world.sandboxList().find((row) => row.status === 'RUNNING' && row.conversationIds.length === 2);
		assert.ok(sandbox, 'a running sandbox holding two conversations');
		const [first, second] = sandbox.conversationIds.map((id) => shared.world.findConversation(id)!) as [SimConversation, SimConversation];
		for (const conversation of [first, second]) if (shared.world.agent(conversation) && conversation.executionStatus !== 'running') shared.world.sendMessage(conversation, 'go on', true);
		const {server, io} = harness(shared);
		assert.equal(await runInterrupt(server, io, first.id), 0);
		assert.equal(first.executionStatus, 'paused');
		assert.equal(second.executionStatus, 'running');
		assert.equal(sandbox.status, 'RUNNING');
		await server.close();
	} finally {
		await shared.close();
	}
});

test('sandboxes --json: the exposed VS Code URL is printed with its token redacted, the rest kept', async () => {
	const {runSandboxes} = await import('../source/commands/sandboxes.js');
	const {server, io, out} = harness();
	assert.equal(await runSandboxes(server, io, {json: true} as Parameters<typeof runSandboxes>[2]), 0);
	const sandboxes = JSON.parse(out()) as Array<{exposed_urls?: Array<{name: string; url: string}> | null}>;
	const vscode = sandboxes.flatMap((sandbox) => sandbox.exposed_urls ?? []).filter((link) => link.name === 'VSCODE');
	assert.ok(vscode.length > 0, 'running sandboxes list VS Code');
	for (const link of vscode) assert.match(link.url, /\/vscode\/\?tkn=\[redacted\]&folder=%2Fworkspace%2Fproject$/);
	for (const sandbox of sim.world.sandboxList()) assert.ok(!out().includes(sandbox.sessionApiKey), 'no session key anywhere');
	await server.close();
});

describe('approve, reject, message', () => {
	// A second world for reject: each seeded world has one conversation waiting for confirmation.
	let other: Simulator;
	before(async () => {
		other = await startSimulator({port: 0, tickMs: 0, seed: 11, conversations: 20});
		other.step(20);
	});
	after(() => other.close());

	test('approve runs a waiting agent; approving a running one is refused before any request', async () => {
		const {conversation} = runningWithNeighbourOrAlone('waiting_for_confirmation');
		const {server, io, out} = harness();
		assert.equal(await runApprove(server, io, conversation.id), 0);
		assert.equal(conversation.executionStatus, 'running');
		assert.match(out(), /approved the pending actions/);
		const responses = count('POST /runtime/:n/api/conversations/:id/events/respond_to_confirmation');
		const error = await failure(runApprove(server, io, conversation.id));
		assert.match(error.message, /is running, not waiting for confirmation: nothing to approve/);
		assert.equal(exitCodeFor(error), ExitCode.usage);
		assert.equal(count('POST /runtime/:n/api/conversations/:id/events/respond_to_confirmation'), responses);
		await server.close();
	});

	test('reject --reason: the agent sees the reason', async () => {
		const {conversation} = runningWithNeighbourOrAlone('waiting_for_confirmation', other);
		const {server, io, out} = harness(other);
		assert.equal(await runReject(server, io, conversation.id, 'use the staging database'), 0);
		assert.match(out(), /rejected the pending actions .*reason/);
		const rejection = other.world.events(conversation).find((event) => event.kind === 'UserRejectObservation');
		assert.equal((rejection as {rejection_reason?: string} | undefined)?.rejection_reason, 'use the staging database');
		assert.notEqual(conversation.executionStatus, 'waiting_for_confirmation');
		await server.close();
	});

	test('message: without --run the agent stays put; with --run it runs', async () => {
		const {conversation} = runningWithNeighbourOrAlone('finished');
		const {server, io, out} = harness();
		assert.equal(await runMessage(server, io, conversation.id, 'also update the changelog', false), 0);
		assert.equal(conversation.executionStatus, 'finished');
		assert.match(out(), /not run: add --run/);
		assert.equal(await runMessage(server, io, conversation.id, 'go on please', true), 0);
		assert.equal(conversation.executionStatus, 'running');
		const texts = JSON.stringify(sim.world.events(conversation).filter((event) => event.kind === 'MessageEvent' && event.source === 'user'));
		assert.ok(texts.includes('also update the changelog') && texts.includes('go on please'));
		await server.close();
	});
});

function runningWithNeighbourOrAlone(status: string, simulator: Simulator = sim): {conversation: SimConversation} {
	for (const conversation of simulator.world.conversationList()) {
		if (used.has(conversation.id) || simulator.world.findSandbox(conversation.sandboxId)?.status !== 'RUNNING') continue;
		simulator.world.agent(conversation);
		if (conversation.executionStatus !== status) continue;
		used.add(conversation.id);
		return {conversation};
	}
	throw new Error(`no running conversation that is ${status}`);
}

describe('as a script runs them: the registry, flags and exit codes', {concurrency: true}, () => {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-control-'));
	after(() => rmSync(home, {recursive: true, force: true}));

	function cli(args: string[]): Promise<{code: number | null; stdout: string; stderr: string}> {
		return runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 40_000});
	}

	test('interrupt on a stopped sandbox exits 5 and says how to resume', async () => {
		const conversation = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'MISSING')!;
		const run = await cli(['interrupt', conversation.id]);
		assert.equal(run.code, 5, run.stderr);
		assert.match(run.stderr, /is MISSING, not RUNNING, so its agent is not running\. Nothing was changed; it cannot be resumed; its history is still readable/);
		assert.doesNotMatch(run.stderr, /agent-tui resume/, 'a MISSING sandbox is not resumable: not advised');
		assert.equal(sim.world.findSandbox(conversation.sandboxId)?.status, 'MISSING');
	});

	test('message TEXT --run exits 0 and runs the agent; reject --reason on one not waiting exits 2', async () => {
		const {conversation} = runningWithNeighbourOrAlone('finished');
		const sent = await cli(['message', conversation.id, 'one more thing', '--run']);
		assert.equal(sent.code, 0, sent.stderr);
		assert.match(sent.stdout, /message sent to .*; its agent runs/);
		assert.equal(conversation.executionStatus, 'running');
		const refused = await cli(['reject', conversation.id, '--reason', 'no']);
		assert.equal(refused.code, 2);
		assert.match(refused.stderr, /not waiting for confirmation: nothing to reject/);
	});

	test('a misplaced flag is a usage error', async () => {
		const run = await cli(['interrupt', 'abcdef12', '--reason', 'x']);
		assert.equal(run.code, 2);
		assert.match(run.stderr, /--reason cannot be used with interrupt/);
	});
});
