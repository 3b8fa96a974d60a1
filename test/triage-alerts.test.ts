import assert from 'node:assert/strict';
import {test} from 'node:test';
import {alertText, attachAlerts} from '../source/state/alerts.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, liveConnection} from './helpers/dashboard-fixture.js';

/**
 * Opt-in alerts: a bell and an OSC 9 notification when a conversation starts needing a person,
 * once per real transition, rate-limited with the rest coalesced, and no server text reaching
 * the terminal as a control sequence.
 */

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(minIntervalMs = 200) {
	const rows = (entries: Array<[number, string, string?]>) => new Map<string, ConversationRow>(entries.map(([n, execution, title]) => [hexId(n), conversationRow({id: hexId(n), title: title ?? `Conversation ${n}`, execution})]));
	const store = fixtureStore(fixtureSnapshot({conversations: rows([[1, 'running'], [2, 'running'], [3, 'running']])}));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs});
	const publish = (entries: Array<[number, string, string?]>) => store.update(() => ({conversations: rows(entries), connection: {...liveConnection, lastSuccessAt: Date.now()}}));
	return {store, written, detach, publish};
}

test('alerts: the first load and a refresh with the same statuses ring nothing; entering "waiting" rings once', async () => {
	const {written, detach, publish} = setup();
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	assert.deepEqual(written, []);
	publish([[1, 'waiting_for_confirmation', 'Deploy \u001B]52;c;ZXZpbA==\u0007 to prod'], [2, 'running'], [3, 'running']]);
	assert.equal(written.length, 1);
	assert.ok(written[0]!.startsWith('\u0007\u001B]9;agent-tui: waiting for confirmation: Deploy'), JSON.stringify(written[0]));
	// One OSC only, ours: the title's own escape sequence is gone.
	assert.equal(written[0]!.split('\u001B').length - 1, 1, JSON.stringify(written[0]));
	publish([[1, 'waiting_for_confirmation', 'Deploy to prod'], [2, 'running'], [3, 'running']]);
	await wait(300);
	assert.equal(written.length, 1, 'a reconnect or re-poll does not ring again');
	publish([[1, 'running'], [2, 'finished'], [3, 'running']]);
	await wait(300);
	assert.equal(written.length, 1, 'leaving a state that needs a person, or finishing, is not an alert');
	detach();
});

test('alerts: a burst is rate-limited, the rest coalesced into one "N conversations need you"', async () => {
	const {written, detach, publish} = setup(300);
	publish([[1, 'running'], [2, 'running'], [3, 'running']]);
	publish([[1, 'error'], [2, 'running'], [3, 'running']]);
	publish([[1, 'error'], [2, 'stuck'], [3, 'running']]);
	publish([[1, 'error'], [2, 'stuck'], [3, 'waiting_for_confirmation']]);
	assert.equal(written.length, 1, 'at most one alert per interval');
	await wait(450);
	assert.equal(written.length, 2);
	assert.match(written[1]!, /agent-tui: 2 conversations need you/);
	detach();
});

test('alert text: printable, one line, bounded', () => {
	assert.equal(alertText('a\u0007b\u001B[2Jc\u202Ed\ne'), 'a b [2Jc d e');
	assert.equal(alertText('x'.repeat(500)).length, 80);
});
