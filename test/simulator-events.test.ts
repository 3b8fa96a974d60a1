import assert from 'node:assert/strict';
import {test} from 'node:test';
import {dashedId} from '../source/wire/ids.js';
import {agent, app, seeded, startTestSimulator, type Json} from './helpers/sim-harness.js';

const qualifiedAction = 'openhands.sdk.event.llm_convertible.action.ActionEvent';

async function allEvents(row: Json, query = ''): Promise<Json[]> {
	const out: Json[] = [];
	let pageId: string | null = null;
	do {
		const result = await agent(row, `/api/conversations/${row.id}/events/search?limit=7${query}${pageId ? `&page_id=${pageId}` : ''}`);
		assert.equal(result.status, 200, result.text);
		out.push(...result.body.items);
		pageId = result.body.next_page_id;
	} while (pageId);
	return out;
}

test('agent server: X-Session-API-Key is required; health needs none; unknown runtime is 404', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'coding');
	for (const headers of [{'x-session-api-key': 'wrong'}, {'x-session-api-key': ''}]) {
		const result = await agent(row, `/api/conversations/${row.id}`, {headers});
		assert.equal(result.status, 401);
		assert.deepEqual(result.body, {detail: 'Unauthorized'});
	}
	assert.deepEqual((await agent(row, '/alive', {headers: {'x-session-api-key': ''}})).body, {status: 'ok'});
	const other = await seeded(sim, 'legacy');
	assert.equal((await agent({...row, session_api_key: other.row.session_api_key}, `/api/conversations/${row.id}`)).status, 401, 'keys are per sandbox');
	const unknownRuntime = await fetch(`${sim.baseUrl}/runtime/1/api/conversations/${row.id}`);
	assert.equal(unknownRuntime.status, 404);
});

test('ConversationInfo has the dashed id; batch get is aligned with null', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'confirmation');
	const info = await agent(row, `/api/conversations/${dashedId(row.id)}`);
	assert.equal(info.body.id, dashedId(row.id));
	assert.equal(info.body.execution_status, 'waiting_for_confirmation');
	assert.equal(info.body.stats.usage_to_metrics.agent.model_name, row.llm_model);
	assert.ok(Array.isArray(info.body.stats.usage_to_metrics.agent.token_usages));
	assert.equal(info.body.confirmation_policy.kind, 'ConfirmRisky');
	const batch = await agent(row, `/api/conversations?ids=${row.id}&ids=${dashedId('0123456789abcdef0123456789abcdef')}`);
	assert.equal(batch.body[0].id, dashedId(row.id));
	assert.equal(batch.body[1], null);
	assert.equal((await agent(row, '/api/conversations/0123456789abcdef0123456789abcdef')).status, 404);
});

test('events search: paging to the end, strictly increasing naive timestamps, no nulls', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'condensing');
	const events = await allEvents(row);
	assert.equal(events.length, sim.world.events(row.id).length);
	assert.equal(new Set(events.map((event) => event.id)).size, events.length);
	for (const [index, event] of events.entries()) {
		assert.match(event.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/, 'naive, microseconds');
		assert.match(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		assert.ok(['agent', 'user', 'environment', 'hook'].includes(event.source));
		if (index > 0) assert.ok(events[index - 1].timestamp < event.timestamp, 'strictly increasing');
		assert.ok(!JSON.stringify(event).includes(':null'), 'null fields are omitted');
	}
	const count = await agent(row, `/api/conversations/${row.id}/events/count`);
	assert.equal(count.body, events.length);

	const restart = await agent(row, `/api/conversations/${row.id}/events/search?limit=3&page_id=unknown-id`);
	assert.deepEqual(restart.body.items.map((event: Json) => event.id), events.slice(0, 3).map((event) => event.id));
	const desc = await agent(row, `/api/conversations/${row.id}/events/search?limit=5&sort_order=TIMESTAMP_DESC`);
	assert.deepEqual(desc.body.items.map((event: Json) => event.id), events.slice(-5).reverse().map((event) => event.id));
	const tooMany = await agent(row, `/api/conversations/${row.id}/events/search?limit=101`);
	assert.equal(tooMany.status, 422);
	assert.deepEqual(tooMany.body.detail[0].loc, ['query', 'limit']);
	assert.equal((await agent(row, `/api/conversations/${row.id}/events/search?sort_order=SIDEWAYS`)).status, 422);

	const condensation = events.find((event) => event.kind === 'Condensation');
	const ids = new Set(events.map((event) => event.id));
	assert.ok(condensation.forgotten_event_ids.length > 5);
	for (const id of condensation.forgotten_event_ids) assert.ok(ids.has(id), 'forgotten ids are real earlier events');
	assert.equal(typeof condensation.summary_offset, 'number');
	const one = await agent(row, `/api/conversations/${row.id}/events/${condensation.id}`);
	assert.equal(one.body.id, condensation.id);
});

test('events search filters: short and qualified kind, source, body, timestamps', async (t) => {
	const sim = await startTestSimulator(t);
	const {row} = await seeded(sim, 'coding');
	const all = await allEvents(row);
	const actions = all.filter((event) => event.kind === 'ActionEvent');
	const short = await allEvents(row, '&kind=ActionEvent');
	const qualified = await allEvents(row, `&kind=${qualifiedAction}`);
	assert.deepEqual(short.map((event) => event.id), actions.map((event) => event.id));
	assert.deepEqual(qualified.map((event) => event.id), actions.map((event) => event.id));
	assert.equal((await agent(row, `/api/conversations/${row.id}/events/count?kind=${qualifiedAction}`)).body, actions.length);

	const user = await allEvents(row, '&source=user');
	assert.ok(user.length > 0);
	for (const event of user) assert.equal(event.source, 'user');
	const word = 'checkout';
	const body = await allEvents(row, `&body=${word.toUpperCase()}`);
	assert.ok(body.length > 0);
	for (const event of body) {
		assert.equal(event.kind, 'MessageEvent');
		assert.match(JSON.stringify(event.llm_message.content), new RegExp(word, 'i'));
	}
	const middle = all[Math.floor(all.length / 2)];
	const since = await allEvents(row, `&timestamp__gte=${middle.timestamp}`);
	assert.equal(since[0].id, middle.id);
	const before = await allEvents(row, `&timestamp__lt=${middle.timestamp}`);
	assert.equal(before.length + since.length, all.length);
	const encrypted = all.find((event) => event.responses_reasoning_item?.encrypted_content);
	assert.ok(encrypted, 'a Responses-API model run carries encrypted reasoning, which clients must never show');
});

test('pause, run, messages with run defaulting to false', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'long-runner');
	const paused = await agent(row, `/api/conversations/${row.id}/pause`, {method: 'POST'});
	assert.deepEqual(paused.body, {success: true});
	const tail = sim.world.events(conversation).slice(-2);
	assert.deepEqual(tail.map((event) => event.kind), ['PauseEvent', 'ConversationStateUpdateEvent']);
	assert.deepEqual([tail[1]!.key, tail[1]!.value], ['execution_status', 'paused']);
	const count = sim.world.events(conversation).length;
	sim.step(3);
	assert.equal(sim.world.events(conversation).length, count, 'a paused agent does nothing');

	const message = {role: 'user', content: [{type: 'text', text: 'Skip the 2025-11-13 partition, it is being re-exported.'}]};
	assert.deepEqual((await agent(row, `/api/conversations/${row.id}/events`, {method: 'POST', json: message})).body, {success: true});
	assert.equal(conversation.executionStatus, 'paused', 'run defaults to false');
	assert.equal(sim.world.events(conversation).at(-1)!.kind, 'MessageEvent');

	assert.deepEqual((await agent(row, `/api/conversations/${row.id}/run`, {method: 'POST'})).body, {success: true});
	assert.equal(conversation.executionStatus, 'running');
	const again = await agent(row, `/api/conversations/${row.id}/run`, {method: 'POST'});
	assert.equal(again.status, 409);
	sim.step(2);
	assert.ok(sim.world.events(conversation).length > count + 3);

	assert.equal((await agent(row, '/api/conversations/0123456789abcdef0123456789abcdef/pause', {method: 'POST'})).status, 400);
	assert.equal((await agent(row, `/api/conversations/${row.id}/events`, {method: 'POST', json: {content: 'no'}})).status, 422);
});

test('respond_to_confirmation: accept runs the pending action, reject records the rejection', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation, row} = await seeded(sim, 'confirmation');
	const pending = sim.world.events(conversation).filter((event) => event.kind === 'ActionEvent').at(-1)!;
	assert.equal(pending.security_risk, 'HIGH');
	assert.match(String((pending.action as Json).command), /rm -rf build\/ && git push --force/);
	assert.equal(row.execution_status, 'waiting_for_confirmation');
	sim.step(3);
	assert.ok(!sim.world.events(conversation).some((event) => event.kind === 'ObservationEvent' && event.action_id === pending.id), 'nothing runs while waiting');

	assert.deepEqual((await agent(row, `/api/conversations/${row.id}/events/respond_to_confirmation`, {method: 'POST', json: {accept: true}})).body, {success: true});
	const observation = sim.world.events(conversation).find((event) => event.kind === 'ObservationEvent' && event.action_id === pending.id);
	assert.ok(observation, 'the accepted action ran');
	assert.equal(conversation.executionStatus, 'running');
	sim.step(20);
	assert.equal(conversation.executionStatus, 'finished');

	// A second confirmation conversation, started through the API, rejected this time.
	const created = await agent(row, `/api/conversations/${row.id}/events/respond_to_confirmation`, {method: 'POST', json: {}});
	assert.equal(created.status, 422);
	const other = sim.world.conversationList().find((candidate) => candidate.scenario === 'confirmation' && candidate !== conversation)!;
	const events = sim.world.events(other);
	assert.ok(events.some((event) => event.kind === 'UserRejectObservation' && event.rejection_source === 'user'), 'the seeded history has a user rejection');
});

test('the app server keeps a searchable copy of the events, also while the sandbox is paused', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation} = await seeded(sim, 'condensing', 'PAUSED');
	const actions = sim.world.events(conversation).filter((event) => event.kind === 'ActionEvent');
	const page = await app(sim, `/api/v1/conversation/${conversation.id}/events/search?kind__eq=ActionEvent&limit=100`);
	assert.equal(page.status, 200);
	assert.deepEqual(page.body.items.map((event: Json) => event.id), actions.slice(0, 100).map((event) => event.id));
	const old = await app(sim, `/api/v1/events/search?conversation_id__eq=${conversation.id}&limit=1`);
	assert.equal(old.body.items[0].kind, 'SystemPromptEvent');
	assert.equal((await app(sim, `/api/v1/conversation/${conversation.id}/events/count?kind__eq=ActionEvent`)).body, actions.length);
	assert.equal((await app(sim, '/api/v1/conversation/0123456789abcdef0123456789abcdef/events/search')).status, 404);
});
