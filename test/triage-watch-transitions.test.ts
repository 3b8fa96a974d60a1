import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {CauseTransitions} from '../source/state/cause-transitions.js';
import {startSimulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {conversationRow, hexId} from './helpers/dashboard-fixture.js';
import {shellQuote} from './helpers/tmux.js';
import {runCli, startCli} from './helpers/built-cli.js';
import {normalizeId} from '../source/wire/ids.js';
import {stopChild} from './helpers/run-process.js';
import {watching} from './helpers/cli-sim.js';
import {eventually} from './helpers/eventually.js';

/**
 * Changes of cause as a stream (state/cause-transitions.ts): `watch --json` writes one line each
 * time a conversation's cause changes (became waiting, error, stuck, …, or cleared), with the
 * previous cause, the new one, the server and the time on that server's clock; `--alert-command`
 * gets the same objects.
 */

const context = (now: number) => ({server: 'lab', now, clockOffsetMs: -86_400_000});

test('cause transitions: the first look is the baseline; each change once, cleared included; an error waits for its classification', () => {
	const causes = new CauseTransitions();
	const a = conversationRow({id: hexId(1), title: 'A', execution: 'running'});
	const b = conversationRow({id: hexId(2), title: 'B', execution: 'waiting_for_confirmation'});
	assert.deepEqual(causes.observe([a, b], context(1000)), [], 'what was there when it began is not said');
	assert.deepEqual(causes.observe([a, b], context(2000)), [], 'nor again');
	const waiting = conversationRow({id: hexId(1), title: 'A', execution: 'waiting_for_confirmation'});
	const running = conversationRow({id: hexId(2), title: 'B', execution: 'running'});
	const changes = causes.observe([waiting, running], context(3000));
	assert.deepEqual(changes.map((change) => [change.id, change.from, change.to, change.kind]), [[hexId(1), null, 'approval', 'approval'], [hexId(2), 'approval', null, 'cleared']]);
	assert.equal(changes[0]!.server, 'lab');
	assert.equal(changes[0]!.server_time, new Date(3000 - 86_400_000).toISOString(), 'the time on the server\'s clock');
	assert.equal(changes[1]!.previous_cause?.key, 'approval');
	assert.equal(changes[0]!.conversation_id, changes[0]!.id);
	// An error whose classification is not read yet is held (up to 10 s), then said with it; the class read later is no change.
	const errored = {...conversationRow({id: hexId(1), title: 'A', execution: 'error'})};
	assert.deepEqual(causes.observe([errored, running], context(4000)), [], 'held while its error is read');
	assert.ok(causes.holding);
	const read = {...errored, errorCause: {eventKind: 'ConversationErrorEvent' as const, eventId: 'e1', timestamp: '2026-11-28T00:00:00Z', code: 'LLMRateLimitError', toolName: null, detail: 'slow down', classification: {kind: 'rate_limit' as const, reportedKind: 'rate_limit', retryable: true, userAction: 'retry' as const, errorId: null}}};
	const classified = causes.observe([read, running], context(5000));
	assert.deepEqual(classified.map((change) => [change.from, change.to]), [['approval', 'error:rate_limit']]);
	assert.equal(classified[0]!.cause?.retryable, true);
	assert.ok(!causes.holding);
	// Never read: said as it is after 10 s.
	const other = conversationRow({id: hexId(3), title: 'C', execution: 'running'});
	causes.observe([read, running, other], context(6000));
	const otherErr = conversationRow({id: hexId(3), title: 'C', execution: 'error'});
	assert.deepEqual(causes.observe([read, running, otherErr], context(7000)), []);
	assert.deepEqual(causes.observe([read, running, otherErr], context(17_500)).map((change) => change.to), ['error:unread']);
});

test('watch --json prints a line per change of cause the simulator makes, and --alert-command gets the same objects', {timeout: 120_000}, async (t) => {
	const alertsIn = (home: string) => join(home, 'alerts.ndjson');
	const {sim, home, cli} = await watching(t, 'watch-causes', {seed: 5, conversations: 30, sandboxTransitionMs: 50}, (folder) => ['--alert-command', `cat >> ${shellQuote(alertsIn(folder))}; echo >> ${shellQuote(alertsIn(folder))}`], 60_000);
	const received = alertsIn(home);
	const until = (predicate: () => boolean, what: string, timeoutMs = 60_000) => eventually(predicate, what, {timeoutMs, pollMs: 100, detail: cli.detail});
	type Line = {which: string; id: string; from: string | null; to: string | null; kind: string; server: string; server_time: string};
	const causeLines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line).filter((line) => line.which === 'cause');
	const alerts = () => {
		try {
			return readFileSync(received, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Line);
		} catch {
			return [];
		}
	};
	// Two running agents' sandboxes paused under them (paused mid-run), then resumed (cleared).
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const running = (await app.listSandboxes()).filter((sandbox) => sandbox.status === 'RUNNING').slice(0, 2);
	for (const sandbox of running) await app.pauseSandbox(String(sandbox.id));
	// A running agent's cause becomes paused (one waiting for approval keeps its cause).
	await until(() => causeLines().some((line) => line.to === 'paused'), 'a cause became paused');
	for (const sandbox of running) await app.resumeSandbox(String(sandbox.id));
	await until(() => causeLines().some((line) => line.from === 'paused' && line.kind === 'cleared'), 'cleared once its sandbox runs again');
	assert.ok(!causeLines().some((line) => line.from === 'error:unread' || (line.from ?? '').startsWith('sandbox:ERROR') && line.to?.startsWith('sandbox:ERROR')), `no refinement said as a change: ${cli.stdout}`);
	const printed = causeLines();
	assert.ok(printed.every((line) => line.server === new URL(sim.baseUrl).host && !Number.isNaN(Date.parse(line.server_time))), JSON.stringify(printed));
	assert.ok(printed.every((line) => line.from !== line.to));
	// The command received exactly the objects printed, each once.
	await until(() => alerts().length >= printed.length, 'the alert command got them');
	const sorted = (lines: Line[]) => lines.map((line) => JSON.stringify(line)).sort();
	assert.deepEqual(sorted(alerts().slice(0, printed.length)), sorted(printed));
	cli.child.kill('SIGINT');
	assert.equal(await cli.exited, 130, cli.stderr);
});

test('a snoozed conversation\'s changes of cause are not said; once it wakes, the next change is, from what was said last', () => {
	const causes = new CauseTransitions();
	const a = conversationRow({id: hexId(1), title: 'A', execution: 'running'});
	const b = conversationRow({id: hexId(2), title: 'B', execution: 'running'});
	causes.observe([a, b], context(1000));
	const asleep = {...conversationRow({id: hexId(1), title: 'A', execution: 'waiting_for_confirmation'}), snoozed: {until: 'change' as const}};
	const bWaits = conversationRow({id: hexId(2), title: 'B', execution: 'waiting_for_confirmation'});
	// Positive beside it: the other conversation's change is said.
	assert.deepEqual(causes.observe([asleep, bWaits], context(2000)).map((change) => [change.id, change.to]), [[hexId(2), 'approval']]);
	const awake = conversationRow({id: hexId(1), title: 'A', execution: 'waiting_for_confirmation'});
	assert.deepEqual(causes.observe([awake, bWaits], context(3000)).map((change) => [change.id, change.from, change.to]), [[hexId(1), null, 'approval']]);
});

test('watch --json leaves out a conversation snoozed for a time: its sandbox paused under it says nothing, another one\'s does', {timeout: 120_000}, async (t) => {
	const sim = await startSimulator({port: 0, seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 50});
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-watch-snoozed-'));
	const env = {OPENHANDS_API_KEY: sim.apiKey, XDG_STATE_HOME: join(home, 'state')};
	t.after(async () => {
		await sim.close();
		rmSync(home, {recursive: true, force: true});
	});
	// Two running agents in two different sandboxes: one is snoozed for two hours. (Each agent's
	// history, and so its status, is built on first use.)
	for (const conversation of sim.world.conversationList()) sim.world.agent(conversation);
	const atWork = sim.world.conversationList().filter((conversation) => conversation.executionStatus === 'running' && sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING');
	assert.ok(atWork.length >= 2, `running agents in the seed: ${atWork.length}`);
	const [sleeping, other] = [atWork[0]!, atWork.find((conversation) => conversation.sandboxId !== atWork[0]!.sandboxId)!];
	assert.ok(other, 'two sandboxes');
	const snoozed = await runCli(['snooze', sleeping.id, '--for', '2h', '--base-url', sim.baseUrl], {home, env});
	assert.equal(snoozed.code, 0, snoozed.stderr);
	const cli = startCli(['watch', '--json', '--base-url', sim.baseUrl], {home, env});
	t.after(() => stopChild(cli.child));
	const until = (predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 60_000, pollMs: 100, detail: cli.detail});
	await until(() => cli.stderr.includes('watching 30 conversations'), 'the baseline');
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	await app.pauseSandbox(sleeping.sandboxId);
	await app.pauseSandbox(other.sandboxId);
	type Line = {which: string; id: string; to: string | null};
	const lines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	// Positive: the other one's cause became paused, and both status lines came (the pause reached both).
	await until(() => lines().some((line) => line.which === 'cause' && normalizeId(line.id) === normalizeId(other.id) && line.to === 'paused'), 'the other conversation paused mid-run');
	await until(() => lines().some((line) => line.which === 'sandbox' && normalizeId(line.id) === normalizeId(sleeping.id)), 'the snoozed one\'s sandbox status line');
	assert.ok(!lines().some((line) => line.which === 'cause' && normalizeId(line.id) === normalizeId(sleeping.id)), `no cause line for the snoozed one: ${cli.stdout}`);
});
