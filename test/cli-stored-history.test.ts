import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli, startCli, type CliRun, type RunningCli} from './helpers/built-cli.js';
import {stopChild} from './helpers/run-process.js';

/**
 * `agent-tui events` for conversations whose sandbox is not running, as a user runs it (the CLI
 * as a subprocess) against the simulator: the app server's stored copy, every page, in order,
 * every filter, exit 0, and no sandbox resumed. Also against an older app server that has only
 * the older route, answering the newer one with its web page (as the hosted service does) or 404.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-stored-'));
after(() => rmSync(home, {recursive: true, force: true}));

type JsonEvent = {id: string; kind: string; source: string; timestamp: string; llm_message?: {content?: Array<{text?: string}>}};

let sim: Simulator;
let spaOnly: Simulator;
let notFoundOnly: Simulator;
before(async () => {
	const options = {port: 0, tickMs: 0, seed: 3, conversations: 30, sandboxTransitionMs: 30};
	[sim, spaOnly, notFoundOnly] = await Promise.all([startSimulator(options), startSimulator(options), startSimulator(options)]);
	spaOnly.faults.newEventRoutes('spa-page');
	notFoundOnly.faults.newEventRoutes('not-found');
});
after(async () => {
	await Promise.all([sim.close(), spaOnly.close(), notFoundOnly.close()]);
	await closeHttpAgent();
});

/** What `cliEnv` adds for `server`: its key. */
function env(server: Simulator): NodeJS.ProcessEnv {
	return {OPENHANDS_API_KEY: server.apiKey};
}

function cli(server: Simulator, args: string[]): Promise<CliRun> {
	return runCli([...args, '--base-url', server.baseUrl], {home, env: env(server), timeoutMs: 150_000});
}

function stopped(server: Simulator, status: 'PAUSED' | 'MISSING' | 'ERROR', minEvents = 0): SimConversation {
	const found = server.world
		.conversationList()
		.filter((conversation) => server.world.findSandbox(conversation.sandboxId)?.status === status)
		.map((conversation) => ({conversation, events: server.world.events(conversation).length}))
		.sort((a, b) => b.events - a.events)
		.find((candidate) => candidate.events >= minEvents);
	assert.ok(found, `a ${status} conversation with ${minEvents}+ events`);
	return found.conversation;
}

function messageText(event: {kind: string; llm_message?: unknown}): string {
	const content = (event.llm_message as {content?: Array<{text?: unknown}>} | undefined)?.content ?? [];
	return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** Nothing was resumed, started or asked of an agent server: the statuses and the request log. */
function assertNothingResumed(server: Simulator, before: Map<string, string>): void {
	for (const sandbox of server.world.sandboxList()) assert.equal(sandbox.status, before.get(sandbox.id), `sandbox ${sandbox.id} kept its status`);
	const routes = Object.keys(server.stats.byRoute);
	assert.ok(!routes.some((route) => /resume|POST \/api\/v1\/sandboxes$|\/runtime\//.test(route)), `no resume, start or agent-server call (${routes.join(', ')})`);
}

function statuses(server: Simulator): Map<string, string> {
	return new Map(server.world.sandboxList().map((sandbox) => [sandbox.id, sandbox.status]));
}

const ids = (events: ReadonlyArray<{id: string}>) => events.map((event) => event.id);

// One test at a time, each running its few CLIs at once: two dozen tsx processes together starve a small machine.
describe('events of a stopped conversation, from the stored copy', {concurrency: false}, () => {
	for (const [label, server] of [
		['newer route', () => sim],
		['older route only (web page for the newer one)', () => spaOnly],
		['older route only (404 for the newer one)', () => notFoundOnly],
	] as const) {
		for (const status of ['PAUSED', 'MISSING'] as const) {
			test(`${status}, ${label}: --json, --kind, --source, --body, every page in order, exit 0, nothing resumed`, async () => {
				const target = server();
				const before = statuses(target);
				const conversation = stopped(target, status, 20);
				const history = target.world.events(conversation);
				const message = history.find((event) => event.kind === 'MessageEvent' && event.source === 'user' && messageText(event).length > 12)!;
				assert.ok(message, 'the history has a user message to search for');
				// A word of it, in another case: body is a case-insensitive substring of message text.
				const word = messageText(message).split(/\s+/).find((part) => part.length >= 5)!.toUpperCase();
				const [all, actions, agent, body] = await Promise.all([
					cli(target, ['events', conversation.id, '--json']),
					cli(target, ['events', conversation.id, '--json', '--kind', 'ActionEvent']),
					cli(target, ['events', conversation.id, '--json', '--source', 'agent']),
					cli(target, ['events', conversation.id, '--json', '--body', word]),
				]);
				for (const run of [all, actions, agent, body]) assert.equal(run.code, 0, run.stderr);
				assert.deepEqual(ids(JSON.parse(all.stdout) as JsonEvent[]), ids(history), 'the whole history, in order');
				const onlyActions = JSON.parse(actions.stdout) as JsonEvent[];
				assert.ok(onlyActions.length > 0);
				assert.deepEqual(ids(onlyActions), ids(history.filter((event) => event.kind === 'ActionEvent')));
				const onlyAgent = JSON.parse(agent.stdout) as JsonEvent[];
				assert.ok(onlyAgent.length > 0 && onlyAgent.length < history.length);
				assert.deepEqual(ids(onlyAgent), ids(history.filter((event) => event.source === 'agent')));
				const matching = JSON.parse(body.stdout) as JsonEvent[];
				assert.ok(matching.some((event) => event.id === message.id), 'the message the word came from');
				assert.deepEqual(
					ids(matching),
					ids(history.filter((event) => event.kind === 'MessageEvent' && messageText(event).toLowerCase().includes(word.toLowerCase()))),
				);
				assertNothingResumed(target, before);
			});
		}
	}

	test('--desc and the human form; stderr stays quiet when it is not a terminal', async () => {
		const conversation = stopped(sim, 'MISSING', 20);
		const history = sim.world.events(conversation);
		const [desc, human] = await Promise.all([cli(sim, ['events', conversation.id, '--json', '--desc']), cli(sim, ['events', conversation.id, '--source', 'agent'])]);
		assert.equal(desc.code, 0, desc.stderr);
		assert.deepEqual(ids(JSON.parse(desc.stdout) as JsonEvent[]), ids(history).reverse());
		assert.equal(human.code, 0, human.stderr);
		const lines = human.stdout.trimEnd().split('\n');
		assert.equal(lines.length, history.filter((event) => event.source === 'agent').length);
		for (const line of lines) assert.match(line, /^(\d\d:\d\d:\d\d|--:--:--) {2}agent {8}\S/);
		assert.doesNotMatch(human.stderr, /reading stored history/);
	});

	for (const status of ['MISSING', 'ERROR'] as const) {
		test(`--follow on ${status}: the history, then exit 0 saying why`, async () => {
			const before = statuses(sim);
			const conversation = stopped(sim, status, 5);
			const run = await cli(sim, ['events', conversation.id, '--follow', '--json']);
			assert.equal(run.code, 0, run.stderr);
			const lines = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as JsonEvent);
			assert.ok(lines.length >= 5);
			assert.deepEqual(ids(lines), ids(sim.world.events(conversation)));
			assert.match(run.stderr, new RegExp(`conversation ended: its sandbox is ${status}`));
			assertNothingResumed(sim, before);
		});
	}
});

test('--follow on PAUSED: the history, a note that the sandbox is paused, a failed check survived, then live once someone resumes it (no gap, no duplicate)', {timeout: 300_000}, async () => {
	const server = await startSimulator({port: 0, tickMs: 0, seed: 3, conversations: 30, sandboxTransitionMs: 30});
	let cli: RunningCli | undefined;
	try {
		// One whose agent has not ended, so that going live does not end the follow at once.
		const conversation = server.world
			.conversationList()
			.find((row) => server.world.findSandbox(row.sandboxId)?.status === 'PAUSED' && server.world.events(row).length > 10 && !['finished', 'error', 'stuck'].includes(row.executionStatus ?? ''));
		assert.ok(conversation, 'a paused conversation whose agent has not ended');
		const history = ids(server.world.events(conversation));
		// The --follow that waits for a resume runs until the test stops it: its own child, not `runCli`.
		const running = startCli(['events', conversation.id, '--follow', '--json', '--base-url', server.baseUrl], {home, env: env(server)});
		cli = running;
		const until = async (what: string, check: () => boolean, ms = 120_000) => {
			const deadline = Date.now() + ms;
			while (!check()) {
				assert.ok(Date.now() < deadline, `timed out waiting for ${what}; stderr: ${running.stderr}`);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
		};
		await until('the paused note', () => /sandbox is PAUSED/.test(running.stderr));
		const printed = () => running.stdout.trimEnd().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as JsonEvent).id);
		assert.deepEqual(printed(), history, 'the stored history first, in order');
		assert.equal(server.world.findSandbox(conversation.sandboxId)?.status, 'PAUSED', 'waiting resumed nothing');
		assert.ok(!Object.keys(server.stats.byRoute).some((route) => route.includes('resume')));

		// The app server fails every attempt of one check (the client's retries included): the wait goes on.
		server.faults.serverErrors({count: 5, status: 503});
		const remaining = async () => ((await (await fetch(`${server.baseUrl}/_sim/faults`)).json()) as {serverErrorsRemaining: number}).serverErrorsRemaining;
		for (let left = await remaining(); left > 0; left = await remaining()) {
			assert.ok(running.child.exitCode === null, `the follow ended on a failed check: ${running.stderr}`);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}

		// Someone else resumes it; a new event arrives once it runs.
		const resumed = await fetch(`${server.baseUrl}/api/v1/sandboxes/${conversation.sandboxId}/resume`, {method: 'POST', headers: {authorization: `Bearer ${server.apiKey}`}});
		assert.equal(resumed.status, 200);
		await until('the sandbox to run', () => server.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING', 30_000);
		// The CLI checks every 10 s, then backfills from the agent server and opens the socket.
		await until('the stream to subscribe', () => server.openSockets() > 0, 90_000);
		const live = server.world.sendMessage(conversation, 'are you still there?', false);
		await until('the live event', () => printed().includes(live.id), 60_000);
		const all = printed();
		assert.equal(new Set(all).size, all.length, 'nothing printed twice');
		assert.deepEqual(all, ids(server.world.events(conversation)), 'stored history then live, in order, no gap');
		running.child.kill('SIGINT');
		assert.equal(await running.exited, 130, running.stderr);
	} finally {
		if (cli) await stopChild(cli.child);
		await server.close();
	}
});
