import assert from 'node:assert/strict';
import {test, type TestContext} from 'node:test';
import type {Simulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {NotFoundError} from '../source/wire/errors.js';
import {seeded, startTestSimulator} from './helpers/sim-harness.js';

/** The stored-event client over real HTTP against the simulator: both routes and the choice between them. */

function routeCount(sim: Simulator, route: 'new' | 'old'): number {
	const key = route === 'new' ? 'GET /api/v1/conversation/:id/events/search' : 'GET /api/v1/events/search';
	return sim.stats.byRoute[key] ?? 0;
}

/** An app client on `sim`, closed with the test. */
function clientOn(t: TestContext, sim: Simulator): AppClient {
	const client = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	t.after(() => client.close());
	return client;
}

/** Every stored event of `conversationId`, by id, read page by page, and how many pages that took. */
async function readAllPages(client: AppClient, conversationId: string, limit: number): Promise<{ids: string[]; pages: number}> {
	const ids: string[] = [];
	let pages = 0;
	for await (const page of client.storedEvents.pages(conversationId, {limit})) {
		pages++;
		ids.push(...page.events.map((event) => event.id));
	}
	return {ids, pages};
}

test('a paused conversation: every stored event, in pages, through the newer route', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation} = await seeded(sim, 'condensing', 'PAUSED');
	const client = clientOn(t, sim);
	const expected = sim.world.events(conversation).map((event) => event.id);
	const {ids, pages} = await readAllPages(client, conversation.id, 7);
	assert.deepEqual(ids, expected);
	assert.equal(pages, Math.ceil(expected.length / 7));
	assert.equal(client.storedEvents.route, 'conversation');
	assert.equal(routeCount(sim, 'new'), pages);
	assert.equal(routeCount(sim, 'old'), 0);
	assert.equal(sim.world.findSandbox(conversation.sandboxId)?.status, 'PAUSED', 'reading history resumed nothing');
});

test('kind__eq takes the short name; a qualified kind is sent short; newest first on request', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation} = await seeded(sim, 'coding', 'MISSING').catch(() => seeded(sim, 'legacy', 'MISSING'));
	const client = clientOn(t, sim);
	const actions = sim.world.events(conversation).filter((event) => event.kind === 'ActionEvent');
	assert.ok(actions.length > 0);
	const page = await client.storedEvents.searchPage(conversation.id, {kind: 'openhands.sdk.event.llm_convertible.action.ActionEvent', sortOrder: 'TIMESTAMP_DESC'});
	assert.deepEqual(
		page.events.map((event) => event.id),
		actions.map((event) => event.id).reverse(),
	);
	assert.ok(page.events.every((event) => event.kind === 'ActionEvent'), 'validated into known events');
	await assert.rejects(client.storedEvents.searchPage(conversation.id, {limit: 101}), RangeError);
});

for (const mode of ['not-found', 'spa-page'] as const) {
	test(`an older app server (newer route ${mode}): the older route, probed once per client`, async (t) => {
		const sim = await startTestSimulator(t);
		if (mode === 'not-found') sim.faults.newEventRoutes(mode);
		else {
			// As a simulator in another process (tmux tests) is steered.
			const set = await fetch(`${sim.baseUrl}/_sim/faults`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({newEventRoutes: mode})});
			assert.equal(set.status, 200);
			assert.equal(((await (await fetch(`${sim.baseUrl}/_sim/faults`)).json()) as {newEventRoutes: string}).newEventRoutes, mode);
		}
		const {conversation} = await seeded(sim, 'condensing', 'PAUSED');
		const client = clientOn(t, sim);
		const expected = sim.world.events(conversation).map((event) => event.id);
		const {ids, pages} = await readAllPages(client, conversation.id, 10);
		assert.deepEqual(ids, expected);
		assert.equal(client.storedEvents.route, 'events');
		assert.equal(routeCount(sim, 'old'), pages, 'every page through the older route');
		// The newer route was asked once: the probe. (Unrouted, it is counted as such.)
		assert.equal(sim.stats.byRoute['GET (unrouted)'] ?? 0, 1);
		// A second conversation on the same client: no new probe.
		const other = sim.world.conversationList().find((row) => row !== conversation && sim.world.findSandbox(row.sandboxId)?.status === 'MISSING')!;
		const otherPage = await client.storedEvents.searchPage(other.id, {limit: 5});
		assert.deepEqual(
			otherPage.events.map((event) => event.id),
			sim.world.events(other).slice(0, 5).map((event) => event.id),
		);
		assert.equal(sim.stats.byRoute['GET (unrouted)'] ?? 0, 1);
	});
}

test('an unknown conversation is a NotFoundError, and the newer route stays the one in use', async (t) => {
	const sim = await startTestSimulator(t);
	const {conversation} = await seeded(sim, 'condensing', 'PAUSED');
	const client = clientOn(t, sim);
	await client.storedEvents.searchPage(conversation.id, {limit: 1});
	await assert.rejects(client.storedEvents.searchPage('0123456789abcdef0123456789abcdef'), NotFoundError);
	assert.equal(client.storedEvents.route, 'conversation');
	assert.equal(routeCount(sim, 'old'), 0, 'a 404 from a route known to exist is not a reason to fall back');
});
