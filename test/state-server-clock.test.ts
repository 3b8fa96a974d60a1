import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseClockOffset} from '../source/simulator/clock.js';
import {ServerClock, serverClock} from '../source/wire/server-clock.js';
import {parseTime} from '../source/state/attention.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {clockOffsetText} from '../source/view/Header.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * Ages by the servers' clock: estimated from `Date` headers, used for every age and "quiet"
 * figure, against a simulator whose clock runs three weeks behind ours.
 */

const day = 86_400_000;

test('ServerClock: the median of the recent Date headers, mid-second, mid-round-trip; bad headers ignored', () => {
	let local = 1_000_000_000_000;
	const clock = new ServerClock(() => local);
	assert.equal(clock.offsetMs(), 0, 'no answer yet: our clock');
	const server = local - 21 * day;
	clock.observe(new Date(server).toUTCString(), local - 100, local + 100);
	assert.ok(Math.abs(clock.offsetMs() + 21 * day) <= 1000, `offset ${clock.offsetMs()}`);
	clock.observe(new Date(server).toUTCString(), local, local);
	clock.observe(new Date(server).toUTCString(), local, local);
	// The newest answer is a wild one (a proxy's cached header, a day old): the median of the
	// recent samples stays three weeks behind; the newest sample alone would say one day.
	clock.observe(new Date(server + 20 * day).toUTCString(), local, local);
	assert.ok(Math.abs(clock.offsetMs() + 21 * day) <= 1000, `one wild sample moved the estimate to ${clock.offsetMs()}`);
	clock.observe(new Date(server).toUTCString(), local, local);
	assert.ok(Math.abs(clock.offsetMs() + 21 * day) <= 1000);
	clock.observe('not a date', local, local);
	clock.observe(undefined, local, local);
	assert.equal(clock.samples(), 5);
	local += 5000;
	assert.ok(Math.abs(clock.now() - (server + 5000)) <= 1000, 'now runs on from the server time');
});

test('parseClockOffset and the header words', () => {
	assert.equal(parseClockOffset('-21d'), -21 * day);
	assert.equal(parseClockOffset('+3h'), 3 * 3_600_000);
	assert.equal(parseClockOffset('90s'), 90_000);
	assert.equal(parseClockOffset('2w'), 14 * day);
	assert.equal(parseClockOffset('-500ms'), -500);
	assert.equal(parseClockOffset('three weeks'), null);
	assert.equal(clockOffsetText(-21 * day), 'server clock 21d behind');
	// An estimate a second short or long of three weeks still reads three weeks (it was "20d", a flaky e2e).
	assert.equal(clockOffsetText(-21 * day + 1000), 'server clock 21d behind');
	assert.equal(clockOffsetText(-21 * day - 1000), 'server clock 21d behind');
	assert.equal(clockOffsetText(2 * 3_600_000), 'server clock 2h ahead');
	assert.equal(clockOffsetText(-30_000), null, 'under a minute is noise, not news');
});

const waitFor = waitForSnapshot;

test('a server three weeks behind: the offset is estimated, a just-started conversation is minutes old, nothing is quiet for weeks', {timeout: 60_000}, async (t) => {
	const {store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 20, sandboxTransitionMs: 50, startTaskPhaseMs: 20, clockOffsetMs: parseClockOffset('-21d')!});
	const loaded = await waitFor(store, (snapshot) => snapshot.conversations.size === 20 && Math.abs(snapshot.connection.clockOffsetMs + 21 * day) < 5000, 'the list and the clock offset');
	assert.ok(Math.abs(serverClock.offsetMs() + 21 * day) < 5000, `estimate ${serverClock.offsetMs()}`);
	// Our clock would call every running conversation quiet for three weeks.
	for (const row of loaded.conversations.values()) {
		for (const reason of row.attention) if (reason.kind === 'quiet') assert.ok(reason.quietForMs < day, `quiet ${reason.quietForMs} ms on ${row.key}`);
	}

	await controller.startConversation({message: 'Add a health check endpoint'});
	const started = await waitFor(store, (snapshot) => snapshot.start.state === 'ready' && snapshot.start.conversationKey !== null && snapshot.conversations.has(snapshot.start.conversationKey), 'the started conversation in the list');
	const row = started.conversations.get(started.start.conversationKey!)!;
	const serverNow = Date.now() + started.connection.clockOffsetMs;
	const age = serverNow - parseTime(row.conversation.created_at)!;
	assert.ok(age >= -5000 && age < 2 * 60_000, `a just-started conversation is ${age} ms old by the server's clock`);
	const cells = conversationCells(row, conversationColumns(80), serverNow);
	assert.match(cells.rest, / +(\d+s|1m) +\S+$/, `the AGE column: ${JSON.stringify(cells.rest)}`);
	// The positive half: with our own clock the same row would be three weeks old.
	assert.match(conversationCells(row, conversationColumns(80), Date.now()).rest, / 2\dd /);
});
