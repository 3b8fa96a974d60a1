import assert from 'node:assert/strict';
import {test} from 'node:test';
import {EventLog} from '../source/state/event-log.js';
import {shiftNaiveTimestamp} from '../source/state/naive-timestamp.js';
import {executionStatusOf, transientEvent} from '../source/state/stream-events.js';
import {compareEvents, parseEvent, type WireEvent} from '../source/wire/schemas/events.js';

/** A minimal valid event at second `n` (plus an optional id suffix to share a timestamp). */
function event(n: number, id = `e${String(n).padStart(7, '0')}`): WireEvent {
	const seconds = 1_700_000_000 + n;
	const timestamp = `${new Date(seconds * 1000).toISOString().slice(0, 19)}.000000`;
	return parseEvent({kind: 'PauseEvent', id, timestamp, source: 'user'});
}

function ids(log: EventLog): string[] {
	return log.events.map((entry) => entry.id);
}

function assertOrdered(log: EventLog): void {
	for (let index = 1; index < log.size; index++) assert.ok(compareEvents(log.at(index - 1)!, log.at(index)!) < 0, `order broken at ${index}`);
}

test('event log: appends in order, dedupes by id, counts only new events, bumps the version on change', () => {
	const log = new EventLog();
	assert.equal(log.size, 0);
	assert.equal(log.lastTimestamp, null);
	assert.equal(log.add([event(1), event(2), event(3)]), 3);
	assert.equal(log.version, 1);
	assert.equal(log.add([event(2), event(3)]), 0, 'replayed events are not new');
	assert.equal(log.version, 1, 'no change, no new version');
	assert.equal(log.add([event(4), event(4), event(5)]), 2, 'duplicates inside one batch count once');
	assert.equal(log.version, 2);
	assert.deepEqual(ids(log), ['e0000001', 'e0000002', 'e0000003', 'e0000004', 'e0000005']);
	assert.equal(log.lastTimestamp, event(5).timestamp);
	assert.equal(log.last?.id, 'e0000005');
	assert.ok(log.has('e0000003'));
	assert.equal(log.get('e0000003')?.timestamp, event(3).timestamp);
	const copy = log.toArray();
	log.add([event(6)]);
	assert.equal(copy.length, 5, 'toArray is a copy');
	assert.equal([...log].length, 6, 'iterable');
});

test('event log: out-of-order events land in (timestamp, id) order, one at a time or as a large batch', () => {
	const log = new EventLog();
	log.add([event(10), event(20), event(30)]);
	assert.equal(log.add([event(15)]), 1);
	assert.equal(log.add([event(5)]), 1);
	assert.equal(log.add([event(20, 'e0000020b'), event(20, 'e0000020a')]), 2, 'same timestamp: ordered by id');
	assert.deepEqual(ids(log), ['e0000005', 'e0000010', 'e0000015', 'e0000020', 'e0000020a', 'e0000020b', 'e0000030']);

	// A resync reaching far back: hundreds of older events interleaved with the ones present.
	const older = Array.from({length: 500}, (_, index) => event(index * 2 + 1)).reverse();
	const added = log.add(older);
	assert.equal(added, 500 - 2, 'the two already present (5 and 15) are dropped');
	assertOrdered(log);
	assert.equal(new Set(ids(log)).size, log.size);
});

test('event log: addNew returns the new events sorted', () => {
	const log = new EventLog();
	log.add([event(2)]);
	const fresh = log.addNew([event(3), event(1), event(2)]);
	assert.deepEqual(
		fresh.map((entry) => entry.id),
		['e0000001', 'e0000003'],
	);
});

test('event log: 100,000 events in order, then 100,000 replayed and 1,000 late ones: each once, in order', (t) => {
	const log = new EventLog();
	const all = Array.from({length: 100_000}, (_, index) => event(index * 2));
	const started = performance.now();
	// In pages, as a backfill delivers them.
	for (let index = 0; index < all.length; index += 100) log.add(all.slice(index, index + 100));
	// One event at a time, as live frames do.
	for (let index = 0; index < 1000; index++) log.add([event(200_000 + index)]);
	assert.equal(log.add(all), 0, 'a full replay adds nothing');
	// Late events scattered through the history, one by one (binary-search inserts).
	for (let index = 0; index < 1000; index++) log.add([event(index * 200 + 1)]);
	const elapsed = performance.now() - started;
	assert.equal(log.size, 102_000);
	assertOrdered(log);
	// How fast is the bench's to say (`npm run bench -- --only=ingest`); a wall-clock limit here
	// failed beside two busy loops (2101 ms against 2000) and proved nothing the bench does not.
	t.diagnostic(`${Math.round(elapsed)} ms`);
});

/** Read through a call: assert.equal(x, null) would otherwise narrow the getter for the rest of the test. */
const ceilingOf = (log: EventLog) => log.ceiling;
const floorOf = (log: EventLog) => log.floor;

test('event log window: trimNewest keeps the oldest part and what is on screen; the ceiling keeps out what is not contiguous', () => {
	const log = new EventLog();
	log.add(Array.from({length: 100}, (_, n) => event(n)));
	assert.equal(log.trimNewest(200), 0, 'under the bound: nothing dropped');
	assert.equal(ceilingOf(log), null);
	// The screen reaches event 59: it stays, even past the 40 asked for.
	assert.equal(log.trimNewest(40, event(59)), 40);
	assert.equal(log.size, 60);
	assert.equal(log.at(-1)!.id, 'e0000059');
	assert.deepEqual(ceilingOf(log), {timestamp: event(59).timestamp, id: 'e0000059'});
	assert.equal(log.trimmed, 40);
	assert.ok(!log.has('e0000060'), 'dropped ids may come back');
	// A live event past the ceiling would leave a hole: refused, one at a time or in a batch.
	assert.equal(log.add([event(150)]), 0);
	assert.equal(log.add([event(150), event(151)]), 0);
	assert.equal(log.size, 60);
	// Read back in order from the ceiling (a repeat of the ceiling itself is dropped): the ceiling moves up.
	const version = log.version;
	assert.deepEqual(log.addNewer([event(59), event(60), event(61)], false).map((entry) => entry.id), ['e0000060', 'e0000061']);
	assert.ok(log.version > version);
	assert.equal(ceilingOf(log)?.id, 'e0000061');
	// The last page: the ceiling goes away and live events are welcome again.
	log.addNewer(Array.from({length: 38}, (_, n) => event(62 + n)), true);
	assert.equal(ceilingOf(log), null);
	assert.equal(log.add([event(150)]), 1);
	assert.deepEqual(ids(log), [...Array.from({length: 100}, (_, n) => event(n).id), 'e0000150']);
	assertOrdered(log);
	// The mirror: trimOldest moves the floor up, never past what is on screen.
	assert.equal(log.trimOldest(50, event(20)), 20);
	assert.equal(floorOf(log)?.id, 'e0000020');
	assert.equal(log.indexOf(event(25)), 5);
	assert.equal(log.indexOf(event(200)), log.size, 'past the end: where it would go');
	// reset drops both bounds and every event.
	log.trimNewest(30);
	assert.ok(ceilingOf(log) && floorOf(log));
	log.reset();
	assert.equal(log.size, 0);
	assert.equal(floorOf(log), null);
	assert.equal(ceilingOf(log), null);
	assert.equal(log.add([event(5)]), 1);
});

test('naive timestamps: stepping back keeps the precision and the separator; other text is left alone', () => {
	assert.equal(shiftNaiveTimestamp('2025-11-22T12:00:00.123456', -1000), '2025-11-22T11:59:59.123456');
	assert.equal(shiftNaiveTimestamp('2025-11-22T00:00:00.000100', -1000), '2025-11-21T23:59:59.000100');
	assert.equal(shiftNaiveTimestamp('2025-11-22T12:00:00.123', -1), '2025-11-22T12:00:00.122');
	assert.equal(shiftNaiveTimestamp('2025-11-22 12:00:00', -1500), '2025-11-22 11:59:58', 'whole seconds round down (still an overlap)');
	assert.equal(shiftNaiveTimestamp('2025-11-22T12:00:00.123456', 0), '2025-11-22T12:00:00.123456');
	assert.equal(shiftNaiveTimestamp('2025-11-22T12:00:00Z', -1000), '2025-11-22T12:00:00Z', 'an aware value is not ours to move');
	assert.equal(shiftNaiveTimestamp('not a time', -1000), 'not a time');
	const moved = shiftNaiveTimestamp('2025-11-22T12:00:00.123456', -1000);
	assert.ok(moved < '2025-11-22T12:00:00.123456', 'compares below the original as a string');
});

test('stream events: transient kinds and execution status', () => {
	const full = parseEvent({kind: 'ConversationStateUpdateEvent', id: 'a', timestamp: 't', source: 'environment', key: 'full_state', value: {execution_status: 'paused'}});
	const change = parseEvent({kind: 'ConversationStateUpdateEvent', id: 'b', timestamp: 't', source: 'environment', key: 'execution_status', value: 'running'});
	const stats = parseEvent({kind: 'ConversationStateUpdateEvent', id: 'c', timestamp: 't', source: 'environment', key: 'stats', value: {}});
	const delta = parseEvent({kind: 'StreamingDeltaEvent', id: 'd', timestamp: 't', source: 'agent', content: 'hi'});
	assert.equal(transientEvent(full), full);
	assert.equal(transientEvent(delta), delta);
	assert.equal(transientEvent(change), undefined);
	assert.equal(executionStatusOf(full), 'paused');
	assert.equal(executionStatusOf(change), 'running');
	assert.equal(executionStatusOf(stats), undefined);
	assert.equal(executionStatusOf(event(1)), undefined);
});
