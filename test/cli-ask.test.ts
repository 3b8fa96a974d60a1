import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {pauseConversation} from '../source/simulator/agent-runtime.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {normalizeId} from '../source/wire/ids.js';
import {runCli} from './helpers/built-cli.js';

/**
 * `agent-tui ask <id> "…"` as a script runs it: the answer on stdout, the conversation's status
 * and event count unchanged; a paused sandbox is said (exit 5) and never resumed; the agent's
 * text reaches a terminal with its escape sequences shown, not run.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-ask-'));
let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 14, askDelayMs: 50});
});
after(async () => {
	await sim?.close();
	rmSync(home, {recursive: true, force: true});
});

const ask = (args: string[]) => runCli(['ask', ...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 30_000});
const waiting = () => sim.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!;

test('ask answers on stdout; the status and the event count stay the same', {timeout: 60_000}, async () => {
	const conversation = waiting();
	const events = sim.world.events(conversation).length;
	const asked = sim.world.askCount;
	const run = await ask([normalizeId(conversation.id).slice(0, 8), 'what are you blocked on?']);
	assert.equal(run.code, 0, run.stderr);
	assert.match(run.stdout, /blocked on your approval: I want to run `rm -rf build\/ && git push --force/);
	assert.match(run.stderr, /its agent stays waiting for confirmation and nothing is added to its history/);
	assert.equal(sim.world.askCount, asked + 1);
	assert.equal(sim.world.events(conversation).length, events, 'no event recorded');
	assert.equal(sim.world.findConversation(conversation.id)!.executionStatus, 'waiting_for_confirmation', 'status untouched');

	const json = await ask([conversation.id, 'status?', '--json']);
	assert.equal(json.code, 0, json.stderr);
	const body = JSON.parse(json.stdout) as {conversation_id: string; question: string; response: string};
	assert.equal(body.conversation_id, normalizeId(conversation.id));
	assert.equal(body.question, 'status?');
	assert.match(body.response, /You asked: "status\?"/);
});

test('a paused sandbox: a clear message, exit 5, and it stays paused (no resume, no question sent)', {timeout: 60_000}, async () => {
	const paused = sim.world.conversationList().find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'PAUSED')!;
	sim.stats.reset();
	const asked = sim.world.askCount;
	const run = await ask([paused.id, 'hello?']);
	assert.equal(run.code, 5, run.stderr);
	assert.match(run.stderr, /cannot ask .*: its sandbox .* is PAUSED, not RUNNING.*Nothing was changed; resume it first with: agent-tui resume /);
	assert.equal(run.stdout, '');
	assert.equal(sim.world.findSandbox(paused.sandboxId)!.status, 'PAUSED');
	assert.equal(sim.world.askCount, asked);
	assert.ok(!Object.keys(sim.stats.byRoute).some((route) => route.includes('resume')), Object.keys(sim.stats.byRoute).join(', '));
});

test('escape sequences in the answer are shown, not run; an unknown id is exit 4; an empty question exit 2', {timeout: 60_000}, async () => {
	sim.faults.hostileText(true);
	try {
		const run = await ask([waiting().id, 'anything odd?']);
		assert.equal(run.code, 0, run.stderr);
		assert.ok(!run.stdout.includes('\u001B'), 'no raw ESC on stdout');
		assert.match(run.stdout, /␛/);
	} finally {
		sim.faults.hostileText(false);
	}
	const unknown = await ask(['0123456789abcdef0123456789abcdef', 'hi']);
	assert.equal(unknown.code, 4, unknown.stderr);
	const empty = await ask([waiting().id, '  ']);
	assert.equal(empty.code, 2, empty.stderr);
});

test('asking a paused agent says it stays paused, a running one that it keeps working', {timeout: 60_000}, async () => {
	const inRunningSandbox = sim.world.conversationList().filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING' && conversation.executionStatus === 'running');
	assert.ok(inRunningSandbox.length >= 2, 'two running agents in the seed');
	const [running, toPause] = inRunningSandbox;
	pauseConversation(sim.world, toPause!);
	assert.equal(sim.world.findConversation(toPause!.id)!.executionStatus, 'paused');
	const paused = await ask([toPause!.id, 'where are you?']);
	assert.equal(paused.code, 0, paused.stderr);
	assert.match(paused.stderr, /its agent stays paused and nothing is added to its history/);
	assert.doesNotMatch(paused.stderr, /keeps working/);
	const working = await ask([running!.id, 'where are you?']);
	assert.equal(working.code, 0, working.stderr);
	assert.match(working.stderr, /its agent keeps working and nothing is added to its history/);
});
