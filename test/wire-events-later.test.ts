import {eventKindName} from '../source/wire/event-fields.js';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {executionStatusOf, transientEvent} from '../source/state/stream-events.js';
import {selectTimelineEvents} from '../source/state/timeline-query.js';
import {startSimulator} from '../source/simulator/server.js';
import {type LoggedEvent, mayHoldEncryptedContent, parseEvent, parseEventLater, settleEvent, type WireEvent} from '../source/wire/schemas/events.js';

/**
 * Events validated on first use (PendingEvent) must be indistinguishable from events validated on
 * arrival: the same validated event, the same kind name, the same stream decisions, the same
 * filter results. The corpus is every event the simulator's scenarios write, plus damaged copies.
 */

async function corpus(): Promise<Array<Record<string, unknown>>> {
	const sim = await startSimulator({port: 0, seed: 11, tickMs: 0, conversations: 24});
	try {
		sim.step(30);
		return sim.world.conversationList().flatMap((conversation) => sim.world.events(conversation.id).map((event) => JSON.parse(JSON.stringify(event)) as Record<string, unknown>));
	} finally {
		await sim.close();
	}
}

const events = await corpus();

/** Ways a server (or a hostile proxy) damages an event: a field of the wrong type, a missing field, an unknown kind. */
const damage = fc.oneof(
	fc.constant((event: Record<string, unknown>) => event),
	fc.constantFrom('tool_name', 'key', 'llm_message', 'observation', 'action', 'summary', 'source', 'id', 'timestamp').map((field) => (event: Record<string, unknown>) => ({...event, [field]: 42})),
	fc.constantFrom('tool_call_id', 'action_id', 'kind', 'id').map((field) => (event: Record<string, unknown>) => {
		const {[field]: _dropped, ...rest} = event;
		return rest;
	}),
	fc.constant((event: Record<string, unknown>) => ({...event, kind: `openhands.sdk.event.somewhere.${String(event.kind)}`})),
	fc.constant((event: Record<string, unknown>) => ({...event, kind: 'BrandNewEvent'})),
	fc.constant((event: Record<string, unknown>) => ({...event, key: 'execution_status', value: 'waiting_for_confirmation'})),
);

const sample = fc.tuple(fc.integer({min: 0, max: events.length - 1}), damage).map(([index, hurt]) => hurt(structuredClone(events[index]!)));

/** Both ways, from JSON text as a socket frame brings it. */
function bothWays(value: Record<string, unknown>): {now: WireEvent; later: LoggedEvent} {
	const text = JSON.stringify(value);
	const options = {mayHoldEncryptedContent: mayHoldEncryptedContent(text)};
	return {now: parseEvent(JSON.parse(text), options), later: parseEventLater(JSON.parse(text), {...options, text})};
}

test('validated on first use or on arrival: the same event, kind name and stream decisions', () => {
	assert.ok(events.length > 300, `${events.length} events`);
	fc.assert(
		fc.property(sample, (value) => {
			const {now, later} = bothWays(value);
			// Decided from the envelope, before any validation.
			assert.equal(eventKindName(later), eventKindName(now));
			assert.equal(later.id, now.id);
			assert.equal(later.timestamp, now.timestamp);
			assert.equal(later.source, now.source);
			assert.equal(executionStatusOf(later), executionStatusOf(now));
			assert.equal(transientEvent(later) === undefined, transientEvent(now) === undefined);
			assert.deepEqual(settleEvent(later), now);
			// Validated once: the same object every time.
			assert.equal(settleEvent(later), settleEvent(later));
		}),
		{numRuns: 1500},
	);
});

test('filters give the same rows over pending events as over validated ones', () => {
	const filters = ['kind:ActionEvent', 'kind:obs', 'source:agent', 'tool:terminal', 'pytest', 'kind:ActionEvent source:agent test', '"exit code"', 'kind:BrandNewEvent', 'unknown'];
	fc.assert(
		fc.property(fc.array(sample, {minLength: 1, maxLength: 60}), fc.constantFrom(...filters), fc.constantFrom('asc' as const, 'desc' as const), (values, filter, order) => {
			const pairs = values.map((value) => bothWays(value));
			const now = pairs.map((pair) => pair.now);
			const later = pairs.map((pair) => pair.later);
			const fromLater = selectTimelineEvents({events: later, version: 1}, filter, order).map((event) => settleEvent(event));
			assert.deepEqual(fromLater, selectTimelineEvents({events: now, version: 1}, filter, order));
		}),
		{numRuns: 300},
	);
});

test('a pending event never holds encrypted_content, as text or as an object', () => {
	const secret = 'gAAAAABsecret-reasoning-blob';
	for (const value of [
		{kind: 'ActionEvent', id: 'a', timestamp: 't', source: 'agent', tool_name: 'x', tool_call_id: 'c', responses_reasoning_item: {id: 'r', encrypted_content: secret}},
		// Spelled with an escape: still found, since the text is not trusted to show it plainly.
		JSON.parse(`{"kind":"MessageEvent","id":"b","timestamp":"t","source":"agent","llm_message":{"role":"assistant","content":[]},"nested":{"encrypted\\u005fcontent":"${secret}"}}`) as Record<string, unknown>,
	]) {
		const text = JSON.stringify(value).replace('encrypted_content', 'encrypted\\u005fcontent');
		const later = parseEventLater(JSON.parse(text), {mayHoldEncryptedContent: mayHoldEncryptedContent(text), text});
		assert.equal(later.kind, 'PendingEvent');
		assert.ok(!JSON.stringify(later).includes(secret), JSON.stringify(later));
		assert.ok(!JSON.stringify(settleEvent(later)).includes(secret));
	}
});

test('an event whose payload is invalid shows as unknown, with its problem, once it is needed', () => {
	const text = JSON.stringify({kind: 'ObservationEvent', id: 'o', timestamp: 't', source: 'environment', tool_name: 7});
	const later = parseEventLater(JSON.parse(text), {mayHoldEncryptedContent: false, text});
	assert.equal(later.kind, 'PendingEvent');
	assert.equal(eventKindName(later), 'ObservationEvent');
	const settled = settleEvent(later);
	assert.equal(settled.kind, 'UnknownEvent');
	assert.match(settled.kind === 'UnknownEvent' ? settled.problem : '', /invalid ObservationEvent/);
	assert.equal(eventKindName(settled), 'ObservationEvent');
});

test('property: any JSON text whose value holds an encrypted_content key is flagged, however the key is spelled', () => {
	const key = 'encrypted_content';
	// The key at some depth of some JSON value, each of its letters possibly written as \uXXXX.
	const holder = fc.tuple(fc.jsonValue({maxDepth: 3}), fc.array(fc.constantFrom('a', 'b', 'items'), {maxLength: 4}), fc.array(fc.boolean(), {minLength: key.length, maxLength: key.length}));
	fc.assert(
		fc.property(holder, ([value, path, escaped]) => {
			let nested: unknown = {[key]: 'secret', value};
			for (const step of path) nested = step === 'items' ? [nested] : {[step]: nested};
			const spelled = [...key].map((letter, index) => (escaped[index] ? `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}` : letter)).join('');
			const text = JSON.stringify(nested).replace(`"${key}"`, `"${spelled}"`);
			assert.ok(JSON.stringify(JSON.parse(text)).includes(key));
			assert.equal(mayHoldEncryptedContent(text), true, text);
		}),
		{numRuns: 500},
	);
	assert.equal(mayHoldEncryptedContent('{"kind":"MessageEvent","text":"no secrets here"}'), false);
});
