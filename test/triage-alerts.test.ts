import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import {alertText, attachAlerts} from '../source/state/alerts.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {conversationRow, fixtureNow, fixtureSnapshot, fixtureStore, hexId, liveConnection} from './helpers/dashboard-fixture.js';

/**
 * Opt-in alerts: a bell and an OSC 9 notification when a conversation starts needing a person,
 * once per real transition, rate-limited with the rest coalesced, and no server text reaching
 * the terminal as a control sequence.
 */

/** Time is the subject here: Node's mock timers move it (setTimeout and Date), no real waiting. */
function mockTime(t: TestContext): (ms: number) => void {
	t.mock.timers.enable({apis: ['setTimeout', 'Date'], now: Date.now()});
	return (ms) => t.mock.timers.tick(ms);
}

function setup(minIntervalMs = 200) {
	const rows = (entries: Array<[number, string, string?]>) => new Map<string, ConversationRow>(entries.map(([n, execution, title]) => [hexId(n), conversationRow({id: hexId(n), title: title ?? `Conversation ${n}`, execution})]));
	const store = fixtureStore(fixtureSnapshot({conversations: rows([[1, 'running'], [2, 'running'], [3, 'running']])}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs});
	const publish = (entries: Array<[number, string, string?]>) => store.update(() => ({conversations: rows(entries), connection: {...liveConnection, lastSuccessAt: Date.now()}}));
	return {store, written, detach, publish};
}

test('alerts: the first load and a refresh with the same statuses ring nothing; entering "waiting" rings once', (t) => {
	const wait = mockTime(t);
	const {written, detach, publish} = setup();
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	assert.equal(written.length, 0);
	publish([[1, 'waiting_for_confirmation', 'Deploy \u001B]52;c;ZXZpbA==\u0007 to prod'], [2, 'running'], [3, 'running']]);
	assert.equal(written.length, 1);
	// Without a way to read the pending actions the alert still says what is asked, then whose.
	assert.ok(written[0]!.startsWith('\u0007\u001B]9;agent-tui: approve: an action waits for you · Deploy'), JSON.stringify(written[0]));
	// One OSC only, ours: the title's own escape sequence is gone.
	assert.equal(written[0]!.split('\u001B').length - 1, 1, JSON.stringify(written[0]));
	publish([[1, 'waiting_for_confirmation', 'Deploy to prod'], [2, 'running'], [3, 'running']]);
	wait(300);
	assert.equal(written.length, 1, 'a reconnect or re-poll does not ring again');
	publish([[1, 'running'], [2, 'finished'], [3, 'running']]);
	wait(300);
	assert.equal(written.length, 1, 'leaving a state that needs a person, or finishing, is not an alert');
	detach();
});

test('alerts: a burst is rate-limited, the rest coalesced into one "N conversations need you"', (t) => {
	const wait = mockTime(t);
	const {written, detach, publish} = setup(300);
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	publish([[1, 'error'], [2, 'running'], [3, 'running']]);
	publish([[1, 'error'], [2, 'stuck'], [3, 'running']]);
	publish([[1, 'error'], [2, 'stuck'], [3, 'waiting_for_confirmation']]);
	assert.equal(written.length, 1, 'at most one alert per interval');
	assert.equal(written.length, 1, 'nothing more before the interval is over');
	wait(299);
	assert.equal(written.length, 1);
	wait(151);
	assert.equal(written.length, 2);
	assert.match(written[1]!, /agent-tui: 2 conversations need you/);
	detach();
});

test('alerts: an error alert waiting for its cause goes out when its wait ends, though the clock then reads a millisecond short and nothing else changes', (t) => {
	// The timer and the alert's clock are two clocks (libuv's loop time runs a little behind
	// Date.now): the timer ending the wait must release the alert by itself.
	t.mock.timers.enable({apis: ['setTimeout']});
	let clock = fixtureNow;
	const rows = (execution: string) => new Map<string, ConversationRow>([[hexId(1), conversationRow({id: hexId(1), title: 'Nightly build', execution})]]);
	const store = fixtureStore(fixtureSnapshot({conversations: rows('running')}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs: 0, errorCauses: true, reasonTimeoutMs: 3000, now: () => clock});
	t.after(detach);
	store.update(() => ({conversations: rows('running'), connection: {...liveConnection, lastSuccessAt: clock}}));
	store.update(() => ({conversations: rows('error'), connection: {...liveConnection, lastSuccessAt: clock}}));
	assert.equal(written.length, 0, 'held for its cause');
	clock += 2999;
	t.mock.timers.tick(3000);
	assert.equal(written.length, 1, 'the wait is over: it goes out without its cause');
	assert.match(written[0]!, /error · Nightly build/);
});

test('alerts: a sandbox alert waits for the sandbox list to say why (polled apart from the conversations), and goes without it when the wait ends', (t) => {
	t.mock.timers.enable({apis: ['setTimeout']});
	let clock = fixtureNow;
	const row = (n: number, sandbox: string, sandboxDetail?: string) => [hexId(n), conversationRow({id: hexId(n), title: `Backfill ${n}`, execution: null, lastKnown: 'running', sandbox, ...(sandboxDetail ? {sandboxDetail} : {})})] as const;
	const store = fixtureStore(fixtureSnapshot({conversations: new Map([row(1, 'RUNNING'), row(2, 'RUNNING')])}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs: 0, sandboxReasons: true, reasonTimeoutMs: 3000, now: () => clock});
	t.after(detach);
	const publish = (...rows: Array<readonly [string, ConversationRow]>) => store.update(() => ({conversations: new Map(rows), connection: {...liveConnection, lastSuccessAt: clock}}));
	publish(row(1, 'RUNNING'), row(2, 'RUNNING'));
	// The conversation list says ERROR first; the sandbox list, with the reason, comes later.
	publish(row(1, 'ERROR'), row(2, 'RUNNING'));
	assert.equal(written.length, 0, 'held for the sandbox list');
	publish(row(1, 'ERROR', 'OOMKilled'), row(2, 'RUNNING'));
	assert.equal(written.length, 1);
	assert.match(written[0]!, /sandbox error: OOMKilled · Backfill 1/);
	// No reason ever listed: it goes out as it is when the wait ends.
	publish(row(1, 'ERROR', 'OOMKilled'), row(2, 'ERROR'));
	assert.equal(written.length, 1, 'held for the sandbox list');
	clock += 2999;
	t.mock.timers.tick(3000);
	assert.equal(written.length, 2);
	assert.match(written[1]!, /sandbox error · Backfill 2/);
});

test('alert text: printable, one line, bounded', () => {
	assert.equal(alertText('a\u0007b\u001B[2Jc\u202Ed\ne'), 'a b [2Jc d e');
	assert.equal(alertText('x'.repeat(500)).length, 80);
});

test('--quiet-after and --repeat-threshold: durations and counts, misuse is a usage error', async () => {
	const {parseDuration, detectionOptions} = await import('../source/commands/detection-flags.js');
	assert.equal(parseDuration('90s'), 90_000);
	assert.equal(parseDuration('10m'), 600_000);
	assert.equal(parseDuration('1h'), 3_600_000);
	assert.equal(parseDuration('45'), 45_000);
	assert.throws(() => parseDuration('soon'), /duration such as 90s/);
	assert.throws(() => parseDuration('10ms'), /at least 1s/);
	assert.deepEqual(detectionOptions({quietAfter: '5m', repeatThreshold: 4}), {quietAfterMs: 300_000, repeatThreshold: 4});
	assert.throws(() => detectionOptions({quietAfter: undefined, repeatThreshold: 1}), /at least 2/);
	assert.deepEqual(detectionOptions({spendAfter: '20s'}), {spendAfterMs: 20_000});
	assert.throws(() => detectionOptions({spendAfter: 'later'}), /--spend-after takes a duration/);
});

test('config file `dashboard` defaults: used when no flag is given, a flag wins, bad values are refused by name', async (t) => {
	const {dashboardOptions} = await import('../source/commands/dashboard.js');
	const {dashboardDefaults} = await import('../source/config/config-file.js');
	const {mkdtempSync, rmSync, writeFileSync} = await import('node:fs');
	const {tmpdir} = await import('node:os');
	const {join} = await import('node:path');
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-dashboard-defaults-'));
	t.after(() => rmSync(dir, {recursive: true, force: true}));
	const path = join(dir, 'config.json');
	const warnings: string[] = [];
	const warn = (line: string) => warnings.push(line);

	assert.deepEqual(dashboardDefaults(path, warn), {}, 'no file: no defaults');
	writeFileSync(path, JSON.stringify({baseUrl: 'https://app.example.test', dashboard: {quietAfter: '3m', repeatThreshold: 5, alerts: true}}));
	const defaults = dashboardDefaults(path, warn);
	assert.deepEqual(dashboardOptions({}, defaults), {alerts: true, quietAfterMs: 180_000, repeatThreshold: 5});
	assert.deepEqual(dashboardOptions({quietAfter: '90s', alerts: false}, defaults), {alerts: false, quietAfterMs: 90_000, repeatThreshold: 5});
	assert.deepEqual(dashboardOptions({spendAfter: '5m'}, {spendAfter: '1h'}), {alerts: false, spendAfterMs: 300_000}, 'the flag wins over the file');
	assert.deepEqual(dashboardOptions({}, {spendAfter: '1h'}), {alerts: false, spendAfterMs: 3_600_000});
	assert.deepEqual(dashboardOptions({}, {}), {alerts: false});
	assert.deepEqual(warnings, []);

	writeFileSync(path, JSON.stringify({dashboard: {quietAfter: 'soon', repeatThreshold: 1}}));
	assert.deepEqual(dashboardDefaults(path, warn), {});
	assert.match(warnings.join('\n'), /dashboard\.quietAfter.*duration such as 90s/s);
	assert.match(warnings.join('\n'), /dashboard\.repeatThreshold/);
	assert.match(warnings.join('\n'), /starts with its built-in defaults/);
	writeFileSync(path, JSON.stringify({dashboard: {costWarnUsd: [2, 10], contextWarn: [0.5, 0.8]}}));
	assert.deepEqual(dashboardOptions({}, dashboardDefaults(path, warn)), {alerts: false, usageThresholds: {costUsd: [2, 10], contextFraction: [0.5, 0.8]}});
	writeFileSync(path, JSON.stringify({dashboard: {costWarnUsd: [20, 5], contextWarn: [0.5, 80]}}));
	warnings.length = 0;
	assert.deepEqual(dashboardDefaults(path, warn), {});
	assert.match(warnings.join('\n'), /costWarnUsd.*yellow one first/s);
	assert.match(warnings.join('\n'), /contextWarn/);
	writeFileSync(path, JSON.stringify({dashboard: {alertCommand: 'ntfy publish agents', alertProtocol: 'osc99'}}));
	assert.deepEqual(dashboardOptions({}, dashboardDefaults(path, warn)), {alerts: false, alertCommand: 'ntfy publish agents', alertProtocol: 'osc99'});
	assert.deepEqual(dashboardOptions({alertProtocol: 'OSC777', alertCommand: 'notify-send x'}, dashboardDefaults(path, warn)), {alerts: false, alertCommand: 'notify-send x', alertProtocol: 'osc777'});
	assert.throws(() => dashboardOptions({alertProtocol: 'osc52'}, {}), /--alert-protocol takes osc9, osc777, osc99, bell, not "osc52"/);
	writeFileSync(path, JSON.stringify({dashboard: {alertProtocol: 'beep'}}));
	warnings.length = 0;
	assert.deepEqual(dashboardDefaults(path, warn), {});
	assert.match(warnings.join('\n'), /alertProtocol/);
	writeFileSync(path, JSON.stringify({dashboard: {quietAftr: '3m'}}));
	warnings.length = 0;
	assert.deepEqual(dashboardDefaults(path, warn), {});
	assert.match(warnings.join('\n'), /quietAftr/, 'a misspelt key is named');
});

test('the thresholds reach attention: quiet after 2 minutes, repeating after 2 identical calls', async () => {
	const {computeAttention} = await import('../source/state/attention.js');
	const {buildRow} = await import('../source/state/conversation-rows.js');
	const {terminalAction, terminalObservation} = await import('./helpers/event-fixtures.js');
	const row = conversationRow({id: hexId(9), title: 'Quiet one', execution: 'running', updatedMinutesAgo: 3});
	const now = fixtureNow;
	assert.deepEqual(computeAttention({conversation: row.conversation, now, quietAfterMs: 10 * 60_000}), []);
	assert.equal(computeAttention({conversation: row.conversation, now, quietAfterMs: 2 * 60_000})[0]?.kind, 'quiet');
	const first = terminalAction('npm test');
	const second = terminalAction('npm test');
	const events = [first, terminalObservation(first, 'fail', 1), second, terminalObservation(second, 'fail', 1)];
	const facts = {now, quietAfterMs: 60 * 60_000, events, unseenEvents: 0};
	assert.ok(!buildRow(undefined, row.conversation, facts).attention.some((reason) => reason.kind === 'repeating'), 'two calls are not three');
	assert.ok(buildRow(undefined, row.conversation, {...facts, repeatThreshold: 2}).attention.some((reason) => reason.kind === 'repeating'));
});
