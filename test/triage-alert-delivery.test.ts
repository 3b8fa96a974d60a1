import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test, type TestContext} from 'node:test';
import {alertCommand, type AlertPayload} from '../source/state/alert-command.js';
import {attachAlerts, type AlertOptions} from '../source/state/alerts.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import type {PendingAction} from '../source/state/timeline-query.js';
import {tmuxPassthrough} from '../source/state/tmux-passthrough.js';
import {alertBytes, defaultProtocol, multiplexerOf, notificationSequence, passthrough} from '../source/format/terminal-notify.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, liveConnection} from './helpers/dashboard-fixture.js';
import {eventually} from './helpers/eventually.js';
import {terminalAction} from './helpers/event-fixtures.js';

/**
 * How an alert reaches a person: the notification sequence the terminal reads (OSC 9, 777, 99),
 * wrapped for tmux or screen, naming its reason; the tmux setting said once when passthrough is
 * off; and `--alert-command`, fed the alert as JSON, stopped on a timeout, its failures logged,
 * never holding anything up.
 */

const ESC = '\u001B';
const BEL = '\u0007';

test('notification sequences: OSC 9, OSC 777 and kitty\'s OSC 99, with no control character from the text inside', () => {
	assert.equal(notificationSequence('osc9', 'agent-tui', 'approve: $ rm -rf build/'), `${ESC}]9;agent-tui: approve: $ rm -rf build/${BEL}`);
	assert.equal(notificationSequence('osc777', 'agent-tui', 'a; b'), `${ESC}]777;notify;agent-tui;a, b${BEL}`, '; separates fields in OSC 777');
	assert.equal(
		notificationSequence('osc99', 'agent-tui', 'stuck · Fix CI'),
		`${ESC}]99;i=agent-tui:d=0:p=title;agent-tui${ESC}\\${ESC}]99;i=agent-tui:d=1:p=body;stuck · Fix CI${ESC}\\`,
	);
	const hostile = notificationSequence('osc9', 'x', `evil${BEL}${ESC}]52;c;ZXZpbA==${BEL}`);
	assert.equal(hostile.split(ESC).length - 1, 1, 'one ESC: ours');
	assert.equal(hostile.split(BEL).length - 1, 1, 'one BEL: ours');
});

test('passthrough: tmux gets DCS tmux; with every ESC doubled, screen a plain DCS, a bare terminal the sequence itself', () => {
	const osc9 = `${ESC}]9;agent-tui: hi${BEL}`;
	assert.equal(passthrough(osc9, 'tmux'), `${ESC}Ptmux;${ESC}${ESC}]9;agent-tui: hi${BEL}${ESC}\\`);
	assert.equal(passthrough(osc9, 'screen'), `${ESC}P${ESC}]9;agent-tui: hi${BEL}${ESC}\\`);
	assert.equal(passthrough(osc9, null), osc9);
	// OSC 99 ends with ST, which would end screen's DCS early: inside screen it ends with BEL.
	const kitty = notificationSequence('osc99', 't', 'b');
	const wrapped = passthrough(kitty, 'screen');
	assert.equal(wrapped.indexOf(`${ESC}\\`), wrapped.length - 2, 'only the DCS ends with ST');
	// tmux: the inner ST's ESC is doubled too, so tmux does not end its DCS there.
	assert.equal(passthrough(kitty, 'tmux'), `${ESC}Ptmux;${kitty.replaceAll(ESC, ESC + ESC)}${ESC}\\`);
	// The bell is never wrapped: both multiplexers pass a BEL on themselves.
	assert.ok(alertBytes({bell: true, protocol: 'osc9', multiplexer: 'tmux', title: 't', body: 'b'}).startsWith(`${BEL}${ESC}Ptmux;`));
	assert.equal(alertBytes({bell: true, protocol: null, multiplexer: 'tmux', title: 't', body: 'b'}), BEL, 'bell only');
});

test('the multiplexer and the notification come from the environment', () => {
	assert.equal(multiplexerOf({TMUX: '/tmp/tmux-0/default,1,0', TERM: 'screen-256color'}), 'tmux');
	assert.equal(multiplexerOf({TERM: 'tmux-256color'}), 'tmux', 'over SSH from inside tmux only TERM crosses');
	assert.equal(multiplexerOf({STY: '1234.pts-0.host', TERM: 'screen'}), 'screen');
	assert.equal(multiplexerOf({TERM: 'screen-256color'}), 'screen');
	assert.equal(multiplexerOf({TERM: 'xterm-256color'}), null);
	assert.equal(defaultProtocol({TERM: 'xterm-kitty'}), 'osc99');
	assert.equal(defaultProtocol({TERM: 'tmux-256color', KITTY_WINDOW_ID: '3'}), 'osc99', 'a tmux started from kitty');
	assert.equal(defaultProtocol({TERM: 'rxvt-unicode-256color'}), 'osc777');
	assert.equal(defaultProtocol({TERM: 'xterm-256color'}), 'osc9');
});

test('tmux passthrough is asked of tmux for this pane: on, all, off; an older tmux without the option forwards anyway', async () => {
	const asked: string[][] = [];
	const answer = (text: string) => async (args: readonly string[]) => {
		asked.push([...args]);
		return text;
	};
	assert.equal(await tmuxPassthrough({TMUX_PANE: '%3'}, answer('on\n')), 'on');
	assert.deepEqual(asked[0], ['show-options', '-Apv', '-t', '%3', 'allow-passthrough']);
	assert.equal(await tmuxPassthrough({}, answer('all\n')), 'on');
	assert.equal(await tmuxPassthrough({}, answer('off\n')), 'off');
	assert.equal(await tmuxPassthrough({}, answer('\n')), 'off');
	const failing = (message: string) => async () => {
		throw new Error(message);
	};
	assert.equal(await tmuxPassthrough({}, failing('invalid option: allow-passthrough')), 'on');
	assert.equal(await tmuxPassthrough({}, failing('no server running on /tmp/tmux-0/default')), 'unknown');
});

function mockTime(t: TestContext): (ms: number) => void {
	t.mock.timers.enable({apis: ['setTimeout', 'Date'], now: Date.now()});
	return (ms) => t.mock.timers.tick(ms);
}

type Entry = [number, string, string?];

function setup(options: Omit<AlertOptions, 'write'>) {
	const rows = (entries: Entry[]) =>
		new Map<string, ConversationRow>(entries.map(([n, execution, title]) => [hexId(n), conversationRow({id: hexId(n), title: title ?? `Conversation ${n}`, execution})]));
	const store = fixtureStore(fixtureSnapshot({conversations: rows([[1, 'running'], [2, 'running']])}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs: 0, ...options});
	const publish = (entries: Entry[]) => store.update(() => ({conversations: rows(entries), connection: {...liveConnection, lastSuccessAt: Date.now()}}));
	publish([[1, 'running'], [2, 'running']]);
	return {written, detach, publish};
}

test('an approval alert names what it approves, read from the agent server; the tmux wrapper carries it', async () => {
	const pending = [terminalAction('rm -rf build/ && git push --force origin release/2.4')] as unknown as PendingAction[];
	const {written, detach, publish} = setup({multiplexer: 'tmux', pendingActions: async () => pending});
	publish([[1, 'waiting_for_confirmation', 'Release 2.4.3'], [2, 'running']]);
	await eventually(() => written.length, 'the alert', {until: (count) => count === 1});
	const bytes = written[0]!;
	assert.ok(bytes.startsWith(`${BEL}${ESC}Ptmux;${ESC}${ESC}]9;agent-tui: approve: $ rm -rf build/ && git push --force`), JSON.stringify(bytes));
	assert.ok(bytes.includes('· Release 2.4.3'), 'then whose');
	assert.ok(bytes.endsWith(`${BEL}${ESC}\\`), JSON.stringify(bytes));
	detach();
});

test('an alert carries no key: one in what the action runs, or in a title, is redacted in the notification and in the command\'s JSON', async () => {
	const apiKey = 'sk-oh-THE-API-KEY-0123456789';
	const pending = [terminalAction(`echo ${apiKey} | gh auth login --with-token`)] as unknown as PendingAction[];
	const runs: AlertPayload[] = [];
	const {written, detach, publish} = setup({secrets: [apiKey], pendingActions: async () => pending, command: {run: (payload) => runs.push(payload), running: () => 0, close: () => undefined}});
	publish([[1, 'waiting_for_confirmation', 'Rotate X-Session-API-Key: sk-sess-777 now'], [2, 'running']]);
	await eventually(() => runs.length, 'the alert', {until: (count) => count === 1});
	const everything = JSON.stringify([written, runs]);
	assert.ok(!everything.includes(apiKey) && !everything.includes('sk-sess-777'), everything);
	assert.match(runs[0]!.reason, /^approve: \$ echo \[redacted\] \| gh auth login/);
	assert.match(runs[0]!.title ?? '', /^Rotate X-Session-API-Key: \[redacted\] now$/);
	assert.equal(written.length, 1);
	detach();
});

test('an approval alert whose actions cannot be read in time goes without them', async (t) => {
	const tick = mockTime(t);
	const {written, detach, publish} = setup({pendingActions: () => new Promise(() => undefined), reasonTimeoutMs: 500});
	publish([[1, 'waiting_for_confirmation', 'Release 2.4.3'], [2, 'running']]);
	tick(499);
	await Promise.resolve();
	assert.equal(written.length, 0, 'still waiting for the reason');
	tick(1);
	// Mocked timers: the promise chain settles in a few turns of the loop (setImmediate is real).
	for (let turn = 0; turn < 5 && written.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
	assert.equal(written.length, 1);
	assert.match(written[0]!, /approve: an action waits for you · Release 2\.4\.3/);
	detach();
});

test('OSC 777 and OSC 99 when chosen; the bell alone with none', () => {
	for (const [protocol, start] of [
		['osc777', `${BEL}${ESC}]777;notify;agent-tui;stuck · Conversation 1`],
		['osc99', `${BEL}${ESC}]99;i=agent-tui:d=0:p=title;agent-tui`],
	] as const) {
		const {written, detach, publish} = setup({protocol});
		publish([[1, 'stuck'], [2, 'running']]);
		assert.equal(written.length, 1);
		assert.ok(written[0]!.startsWith(start), `${protocol}: ${JSON.stringify(written[0])}`);
		detach();
	}
	const {written, detach, publish} = setup({protocol: null});
	publish([[1, 'error'], [2, 'running']]);
	assert.deepEqual(written, [BEL]);
	detach();
});

test('inside a tmux that drops passthrough, the first alert says the setting it needs, once; with it on, nothing is said', async () => {
	for (const state of ['off', 'on'] as const) {
		const notices: string[] = [];
		let asked = 0;
		const {written, detach, publish} = setup({
			multiplexer: 'tmux',
			passthrough: async () => {
				asked++;
				return state;
			},
			notice: (text) => notices.push(text),
		});
		publish([[1, 'error'], [2, 'running']]);
		publish([[1, 'error'], [2, 'stuck']]);
		assert.equal(written.length, 2, 'two alerts');
		await eventually(() => asked, 'tmux asked', {until: (count) => count === 1});
		await Promise.resolve();
		if (state === 'off') {
			assert.equal(notices.length, 1, 'said once');
			assert.match(notices[0]!, /set -g allow-passthrough on/);
		} else assert.deepEqual(notices, []);
		detach();
	}
	// Outside tmux tmux is never asked.
	let asked = 0;
	const {detach, publish} = setup({multiplexer: null, passthrough: async () => (asked++, 'off')});
	publish([[1, 'error'], [2, 'running']]);
	await Promise.resolve();
	assert.equal(asked, 0);
	detach();
});

function tempDir(t: TestContext): string {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-alert-command-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

test('--alert-command gets the alert as one JSON object on stdin, and the alert goes out without waiting for it', {timeout: 20_000}, async (t) => {
	const dir = tempDir(t);
	const out = join(dir, 'alert.json');
	const logged: string[] = [];
	const command = alertCommand({command: `sleep 0.2; cat > ${out}`, log: (origin, text) => logged.push(`${origin}: ${text}`)});
	const {written, detach, publish} = setup({command, server: 'work'});
	publish([[1, 'stuck', 'Fix the \u001B[31mflaky\u001B[0m test'], [2, 'running']]);
	// The terminal alert is already out while the command still sleeps.
	assert.equal(written.length, 1);
	assert.equal(command.running(), 1);
	await eventually(() => command.running(), 'the command to end', {until: (count) => count === 0});
	const payload = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
	assert.equal(payload.conversation_id, hexId(1));
	assert.equal(payload.title, 'Fix the [31mflaky [0m test', 'the title made printable');
	assert.equal(payload.reason, 'stuck');
	assert.equal(payload.kind, 'stuck');
	assert.equal(payload.server, 'work');
	assert.match(String(payload.time), /^\d{4}-\d\d-\d\dT/);
	assert.deepEqual(logged, [], 'a command that works logs nothing');
	detach();
	command.close();
});

test('--alert-command: a failure and a timeout are logged, never thrown; too many at once are skipped', {timeout: 30_000}, async (t) => {
	const logged: string[] = [];
	const log = (origin: string, text: string) => logged.push(`${origin}: ${text}`);
	const failing = alertCommand({command: 'echo no route to ntfy >&2; exit 3', log});
	failing.run({conversation_id: hexId(1), title: 't', reason: 'error', kind: 'error', time: '', server: ''});
	await eventually(() => logged.length, 'the failure logged', {until: (count) => count === 1});
	assert.match(logged[0]!, /^alert-command: "echo no route.*" exited 3; stderr: no route to ntfy$/);

	const dir = tempDir(t);
	const hanging = alertCommand({command: `trap '' TERM; sleep 30 & echo $! > ${join(dir, 'pid')}; wait`, log, timeoutMs: 300, maxRunning: 1});
	hanging.run({conversation_id: hexId(2), title: 't', reason: 'stuck', kind: 'stuck', time: '', server: ''});
	hanging.run({conversation_id: hexId(3), title: 't', reason: 'error', kind: 'error', time: '', server: ''});
	assert.match(logged[1]!, /skipped the alert "error": 1 runs of the alert command are still going/);
	await eventually(() => hanging.running(), 'the hanging command stopped', {until: (count) => count === 0, timeoutMs: 10_000});
	assert.match(logged[2]!, /took longer than 300 ms and was stopped/);
	// Its child went with it: the whole process group was stopped.
	const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
	await eventually(() => isAlive(pid), 'the child gone', {until: (alive) => !alive});

	const missing = alertCommand({command: '/nonexistent/notifier', log});
	missing.run({conversation_id: null, title: null, reason: 'x', kind: 'several', time: '', server: ''});
	await eventually(() => logged.length, 'the failure logged', {until: (count) => count === 4});
	assert.match(logged[3]!, /exited 127; stderr: .*nonexistent/);
});

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

test('a coalesced alert feeds the command one object that lists every conversation', async (t) => {
	const tick = mockTime(t);
	const runs: unknown[] = [];
	const {written, detach, publish} = setup({minIntervalMs: 1000, command: {run: (payload) => runs.push(payload), running: () => 0, close: () => undefined}});
	publish([[1, 'error'], [2, 'running']]);
	publish([[1, 'error'], [2, 'stuck']]);
	publish([[1, 'error'], [2, 'stuck'], [3, 'waiting_for_confirmation']]);
	assert.equal(runs.length, 1);
	tick(1000);
	assert.equal(written.length, 2);
	assert.match(written[1]!, /agent-tui: 2 conversations need you: stuck, approve/);
	const coalesced = runs[1] as {conversation_id: unknown; kind: string; alerts: Array<{conversation_id: string; reason: string}>};
	assert.equal(coalesced.conversation_id, null);
	assert.equal(coalesced.kind, 'several');
	assert.deepEqual(
		coalesced.alerts.map((alert) => [alert.conversation_id, alert.reason]),
		[
			[hexId(2), 'stuck'],
			[hexId(3), 'approve: an action waits for you'],
		],
	);
	detach();
});

test('an error alert waits for the store to read why, then names it; a sandbox alert names the runtime\'s reason', async (t) => {
	const tick = mockTime(t);
	const rows = (cause?: unknown) => {
		const errored = conversationRow({id: hexId(1), title: 'Backfill', execution: 'error'});
		const down = {...conversationRow({id: hexId(2), title: 'Image', execution: null, sandbox: 'ERROR'}), sandboxDetail: 'ImagePullBackOff'};
		return new Map<string, ConversationRow>([
			[hexId(1), cause === undefined ? errored : ({...errored, errorCause: cause} as ConversationRow)],
			[hexId(2), down],
		]);
	};
	const running = new Map<string, ConversationRow>([
		[hexId(1), conversationRow({id: hexId(1), title: 'Backfill', execution: 'running'})],
		[hexId(2), conversationRow({id: hexId(2), title: 'Image', execution: 'running'})],
	]);
	const store = fixtureStore(fixtureSnapshot({conversations: running}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs: 0, errorCauses: true, reasonTimeoutMs: 3000});
	const publish = (conversations: Map<string, ConversationRow>) => store.update(() => ({conversations, connection: {...liveConnection, lastSuccessAt: Date.now()}}));
	publish(running);
	publish(rows());
	assert.equal(written.length, 1, 'the sandbox alert goes at once; the error waits for its cause');
	assert.match(written[0]!, /sandbox error: ImagePullBackOff · Image/);
	tick(1000);
	const cause = {eventKind: 'ConversationErrorEvent', eventId: 'e', timestamp: '', code: 'LLMRateLimitError', toolName: null, detail: '', classification: {kind: 'rate_limit', reportedKind: null, retryable: true, userAction: 'retry', errorId: null}};
	publish(rows(cause));
	assert.equal(written.length, 2);
	assert.match(written[1]!, /agent-tui: error · rate limit · retryable · Backfill/);
	detach();
});

test('an error alert whose cause is not read in time goes without it', (t) => {
	const tick = mockTime(t);
	const {written, detach, publish} = setup({errorCauses: true, reasonTimeoutMs: 3000});
	publish([[1, 'error'], [2, 'running']]);
	assert.equal(written.length, 0);
	tick(3000);
	assert.equal(written.length, 1);
	assert.match(written[0]!, /agent-tui: error · Conversation 1/);
	detach();
});
