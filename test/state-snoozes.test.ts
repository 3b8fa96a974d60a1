import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {attachAlerts} from '../source/state/alerts.js';
import {causeGroups} from '../source/state/causes.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {countConversations, nextNeedingAttention, selectConversationKeys} from '../source/state/conversation-query.js';
import {SnoozeBook} from '../source/state/snooze-book.js';
import {loadSnoozes, snoozeFilePath} from '../source/state/snooze-store.js';
import {withSnoozes} from '../source/state/snoozed-dashboard.js';
import {parseSnoozeDuration} from '../source/state/snoozes.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, liveConnection, recordingController} from './helpers/dashboard-fixture.js';

/**
 * Snoozes: kept per server in the state directory (0700/0600) across a restart; a snooze until it
 * changes ends when the row's updated_at, status or cause does; a timed one when its time is up.
 * A snoozed row leaves the queue, n/N and the header's count, and the `snoozed` filter lists it.
 */

const waiting = hexId(3);

function stateHome(t: {after(fn: () => void): void}): NodeJS.ProcessEnv {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-snooze-'));
	t.after(() => rmSync(home, {recursive: true, force: true}));
	return {XDG_STATE_HOME: home, HOME: home};
}

/** Microtasks run: the dashboard drops a snooze that ended right after the snapshot that found it. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a snooze is written per server, 0600 in a 0700 directory, and read back by a new book (a restart)', (t) => {
	const env = stateHome(t);
	const book = SnoozeBook.forServer('https://app.example.test/', env);
	book.set(waiting, {until: 'change', signature: 'x', at: 1});
	const path = snoozeFilePath('https://app.example.test', env);
	assert.ok(path.startsWith(join(env.XDG_STATE_HOME!, 'agent-tui', 'snoozes')), path);
	assert.equal(statSync(path).mode & 0o777, 0o600);
	assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
	assert.doesNotMatch(readFileSync(path, 'utf8'), /example/, 'the file names the server by a hash, and holds no address');
	const again = SnoozeBook.forServer('https://APP.example.test', env);
	assert.deepEqual(again.get(waiting), {until: 'change', signature: 'x', at: 1});
	assert.equal(SnoozeBook.forServer('https://other.example.test', env).size, 0, 'another server has its own');
	assert.ok(again.drop(waiting));
	assert.equal(loadSnoozes(path).size, 0, 'an unsnooze is written too');
});

test('a snoozed row leaves the queue, n/N and the count; the snoozed filter lists it; a change brings it back', async () => {
	const inner = fixtureStore(fixtureSnapshot());
	const book = new SnoozeBook(null);
	const {store, controller} = withSnoozes({store: inner, controller: recordingController()}, book);
	const before = store.getSnapshot();
	assert.ok(causeGroups(before).some((group) => group.key === 'approval'));
	const needing = countConversations(before).needingAttention;

	assert.deepEqual(controller.snooze!(waiting, 'change'), {until: 'change'});
	const snoozed = store.getSnapshot();
	assert.deepEqual(snoozed.conversations.get(waiting)?.snoozed, {until: 'change'});
	assert.ok(!causeGroups(snoozed).some((group) => group.key === 'approval'), 'out of the queue');
	assert.equal(countConversations(snoozed).needingAttention, needing - 1);
	const all = selectConversationKeys(snoozed, '');
	assert.ok(all.includes(waiting), 'still in the list');
	for (let from = 0, at: string | null = null; from < all.length; from++) {
		at = nextNeedingAttention(snoozed, all, at);
		assert.notEqual(at, waiting, 'n never lands on it');
	}
	assert.deepEqual(selectConversationKeys(snoozed, 'snoozed'), [waiting]);
	assert.deepEqual(selectConversationKeys(snoozed, 'is:snoozed'), [waiting]);
	assert.equal(store.getSnapshot(), snoozed, 'nothing new: the same snapshot');

	// The same row again with a new updated_at (a new event): no longer snoozed, and the snooze is gone.
	const changed = conversationRow({id: waiting, title: 'Add retries to the importer', execution: 'waiting_for_confirmation', updatedMinutesAgo: 0});
	inner.update((current) => ({conversations: new Map(current.conversations).set(waiting, changed)}));
	assert.equal(store.getSnapshot().conversations.get(waiting)?.snoozed, undefined);
	assert.ok(causeGroups(store.getSnapshot()).some((group) => group.key === 'approval'), 'back in the queue');
	await settle();
	assert.equal(book.get(waiting), undefined, 'the ended snooze is dropped');
});

test('a change of status ends a snooze until change; a status that stays does not', async () => {
	const inner = fixtureStore(fixtureSnapshot());
	const {store, controller} = withSnoozes({store: inner, controller: recordingController()}, new SnoozeBook(null));
	const errored = hexId(5);
	controller.snooze!(errored, 'change');
	// An unrelated row changes: this one stays snoozed.
	inner.update((current) => ({conversations: new Map(current.conversations).set(hexId(1), conversationRow({id: hexId(1), title: 'Fix the flaky payment test', updatedMinutesAgo: 0}))}));
	assert.ok(store.getSnapshot().conversations.get(errored)?.snoozed);
	const row = inner.getSnapshot().conversations.get(errored)!;
	inner.update((current) => ({conversations: new Map(current.conversations).set(errored, {...row, conversation: {...row.conversation, sandbox_status: 'PAUSED'}})}));
	assert.equal(store.getSnapshot().conversations.get(errored)?.snoozed, undefined, 'a new sandbox status brings it back');
});

test('a timed snooze holds until its time, then the row comes back by itself', async (t) => {
	let clock = 1_000_000;
	const inner = fixtureStore(fixtureSnapshot());
	const book = new SnoozeBook(null);
	const {store, controller} = withSnoozes({store: inner, controller: recordingController()}, book, () => clock);
	t.after(() => void controller.close());
	controller.snooze!(waiting, clock + 50);
	assert.deepEqual(store.getSnapshot().conversations.get(waiting)?.snoozed, {until: clock + 50});
	clock += 49;
	assert.ok(store.getSnapshot().conversations.get(waiting)?.snoozed, 'still snoozed a moment before');
	// The wrapper wakes its subscribers when the time is up (its own timer).
	const woken = new Promise<void>((resolve) => {
		const stop = store.subscribe(() => {
			stop();
			resolve();
		});
	});
	clock += 1;
	// The wrapper's timer is unref'd on purpose (a headless command is not kept alive by a snooze),
	// so while this test waits on it nothing else holds the event loop: Node 22 then ends the file
	// with the promise pending ("the event loop has already resolved"). A ref'd timer holds it; it
	// is a guard, never the thing waited for.
	const hold = setTimeout(() => undefined, 30_000);
	await woken;
	clearTimeout(hold);
	assert.equal(store.getSnapshot().conversations.get(waiting)?.snoozed, undefined);
	await settle();
	assert.equal(book.get(waiting), undefined);
});

test('durations read as people write them', () => {
	assert.equal(parseSnoozeDuration('2h'), 7_200_000);
	assert.equal(parseSnoozeDuration('90m'), 5_400_000);
	assert.equal(parseSnoozeDuration('1d'), 86_400_000);
	assert.equal(parseSnoozeDuration('1w'), 604_800_000);
	assert.equal(parseSnoozeDuration('soon'), null);
	assert.equal(parseSnoozeDuration('0h'), null);
});

test('alerts: a row snoozed for a time rings nothing when it starts needing you; one not snoozed does', (t) => {
	const rows = (first: string, second: string) =>
		new Map<string, ConversationRow>([
			[hexId(1), conversationRow({id: hexId(1), title: 'Snoozed one', execution: first, updatedMinutesAgo: 5})],
			[hexId(2), conversationRow({id: hexId(2), title: 'Awake one', execution: second, updatedMinutesAgo: 5})],
		]);
	const inner = fixtureStore(fixtureSnapshot({conversations: rows('running', 'running')}));
	const {store, controller} = withSnoozes({store: inner, controller: recordingController()}, new SnoozeBook(null));
	const written: string[] = [];
	const detach = attachAlerts(store, {write: (text) => written.push(text), minIntervalMs: 0});
	t.after(() => {
		detach();
		void controller.close();
	});
	const publish = (first: string, second: string) => inner.update(() => ({conversations: rows(first, second), connection: {...liveConnection, lastSuccessAt: Date.now()}}));
	publish('running', 'running');
	controller.snooze!(hexId(1), Date.now() + 3_600_000);
	publish('waiting_for_confirmation', 'running');
	assert.equal(written.length, 0, 'the snoozed row rang nothing');
	publish('waiting_for_confirmation', 'waiting_for_confirmation');
	assert.equal(written.length, 1, 'the other did');
	assert.match(written[0]!, /Awake one/);
	assert.doesNotMatch(written[0]!, /Snoozed one/);
});

test('a snooze that cannot be written holds for this run and says why; one that can says nothing', (t) => {
	const env = stateHome(t);
	writeFileSync(join(env.XDG_STATE_HOME!, 'blocker'), 'a file where the directory would go');
	const blocked = SnoozeBook.forServer('https://app.example.test', {...env, XDG_STATE_HOME: join(env.XDG_STATE_HOME!, 'blocker')});
	const {store, controller} = withSnoozes({store: fixtureStore(fixtureSnapshot()), controller: recordingController()}, blocked);
	const mark = controller.snooze!(waiting, 'change');
	assert.match(String(mark?.unsaved), /ENOTDIR|not a directory/i);
	assert.ok(store.getSnapshot().conversations.get(waiting)?.snoozed, 'snoozed all the same');
	const fine = withSnoozes({store: fixtureStore(fixtureSnapshot()), controller: recordingController()}, SnoozeBook.forServer('https://app.example.test', env));
	assert.deepEqual(fine.controller.snooze!(waiting, 'change'), {until: 'change'});
});
