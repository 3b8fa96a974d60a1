import assert from 'node:assert/strict';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {type TestContext, test} from 'node:test';
import {createDashboard} from '../source/state/dashboard-store.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {fastPolling} from './helpers/sim-dashboard.js';

/**
 * Issue 43.4, never "none" for "unreadable": rows the server sent in a shape the client cannot
 * read were counted in the header and the list said "No conversations yet. Press s to start one".
 * They are now listed as unreadable rows (id, why); and a server answering with a web page says
 * "not the API" instead of "✗ offline" over "Loading conversations…" forever.
 */

async function dashboardOn(t: TestContext, baseUrl: string, apiKey: string) {
	const appClient = new AppClient({baseUrl, apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: baseUrl, serverLabel: 'sim', demo: false, ...fastPolling});
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => {}} />, {columns: 140, rows: 30});
	t.after(async () => {
		rendered.unmount();
		await controller.close();
		await closeHttpAgent();
	});
	return rendered;
}

async function simulatorWithUnreadable(t: TestContext, conversations: number, unreadable: number): Promise<Simulator> {
	const sim = await startSimulator({port: 0, seed: 7, tickMs: 0, conversations});
	t.after(() => sim.close());
	sim.faults.unreadableRows(unreadable);
	return sim;
}

test('every row unreadable: the list says so and shows each with its id and why, never "No conversations yet"', async (t) => {
	const sim = await simulatorWithUnreadable(t, 4, 100);
	const rendered = await dashboardOn(t, sim.baseUrl, sim.apiKey);
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('⚠ unreadable'), {timeoutMs: 20_000});
	assert.match(frame, /Could not read any of the 4 rows the server sent \(below\)/);
	assert.doesNotMatch(frame, /No conversations yet|no conversations/);
	const lines = frame.split('\n').filter((line) => line.includes('⚠ unreadable'));
	assert.equal(lines.length, 4, frame);
	for (const row of sim.world.conversationList()) assert.ok(lines.some((line) => line.includes(row.id) && line.includes('pr_number')), `${row.id} listed as unreadable:\n${frame}`);
});

test('some rows unreadable: the readable ones listed, the others after them as unreadable', async (t) => {
	const sim = await simulatorWithUnreadable(t, 6, 2);
	const rendered = await dashboardOn(t, sim.baseUrl, sim.apiKey);
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('⚠ unreadable') && text.includes('Conversations (4)'), {timeoutMs: 20_000});
	const [newest, second] = sim.world.conversationList();
	assert.equal(frame.split('\n').filter((line) => line.includes('⚠ unreadable')).length, 2, frame);
	assert.ok(frame.includes(newest!.id) && frame.includes(second!.id), frame);
	assert.doesNotMatch(frame, /Could not read any/);
});

test('a server that answers with a web page: "not the API", not offline and loading forever', async (t) => {
	const server = createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'text/html'});
		response.end('<!doctype html><html><body>app</body></html>');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => {
		server.closeAllConnections();
		server.close();
	});
	const rendered = await dashboardOn(t, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'k-123456');
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('this URL is not the API'), {timeoutMs: 20_000});
	assert.match(frame, /✗ not the API/);
	assert.match(frame, /Cannot list conversations: this URL is not the API/);
	assert.doesNotMatch(frame, /Loading conversations…|✗ offline|no conversations/);
});
