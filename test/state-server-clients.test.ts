import assert from 'node:assert/strict';
import {test} from 'node:test';
import {startSimulator} from '../source/simulator/server.js';
import {openServerClients} from '../source/state/server-clients.js';
import {Secret} from '../source/wire/secret.js';

/**
 * One place builds a server's transport, budget and app client, for the dashboard and the
 * headless commands alike (state/server-clients.ts). What it owes both: a retry inside the client
 * is a request the server counts, so the budget counts it; and closing ends what was opened.
 */

test("a client retry is counted by the server's budget, and the caller hears of it after", async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 5, conversations: 3});
	t.after(() => sim.close());
	const heard: number[] = [];
	const clients = openServerClients({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)}, {onRetry: () => heard.push(clients.budget.requestsLastMinute())});
	t.after(() => clients.close());

	// One answer without a fault first: one request, counted by whoever sent it (here: nobody).
	assert.equal((await clients.app.listConversations()).length, 3);
	assert.equal(clients.budget.requestsLastMinute(), 0, 'a request made outside the budget is not counted by it');

	sim.faults.serverErrors({count: 1});
	assert.equal((await clients.app.listConversations()).length, 3, 'the retry got the answer');
	assert.deepEqual(heard, [1], 'one retry, counted before the caller heard of it');
	assert.equal(clients.budget.requestsLastMinute(), 1);
});

test('the dashboard asks for no retries: a failure comes straight back, and nothing is counted behind the budget', async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 5, conversations: 3});
	t.after(() => sim.close());
	const clients = openServerClients({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)}, {maxRetries: 0});
	t.after(() => clients.close());
	sim.faults.serverErrors({count: 1});
	await assert.rejects(clients.app.listConversations());
	assert.equal(clients.budget.requestsLastMinute(), 0);
	assert.equal((await clients.app.listConversations()).length, 3, 'the next call succeeds');
});

test('closing refuses what the budget still holds, and is the same promise however often it is asked', async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 5, conversations: 3});
	t.after(() => sim.close());
	const clients = openServerClients({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)});
	assert.equal(clients.budget.closed, false);
	const closing = clients.close();
	assert.equal(clients.close(), closing);
	await closing;
	assert.equal(clients.budget.closed, true);
	await assert.rejects(clients.budget.schedule('after', async () => 1, 'visible'));
});
