import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {largeFilePath} from '../source/simulator/git-workspace.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {ChangesSession} from '../source/state/changes-session.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import type {AppConversation} from '../source/wire/schemas/app.js';
import {Secret} from '../source/wire/secret.js';

/** The Changes view's data over real HTTP: what it requests, what it keeps, what it refuses to do. */

let sim: Simulator;
let rows: AppConversation[];
before(async () => {
	sim = await startSimulator({port: 0, seed: 1, tickMs: 0});
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)});
	rows = [];
	for await (const row of app.searchConversations()) rows.push(row);
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
});

const requests = () => {
	const byRoute = sim.stats.byRoute;
	return {list: byRoute['GET /runtime/:n/api/git/changes'] ?? 0, files: byRoute['GET /runtime/:n/api/git/diff'] ?? 0, info: byRoute['GET /runtime/:n/api/conversations/:id'] ?? 0};
};

function settled(session: ChangesSession, done: (snapshot: ReturnType<ChangesSession['getSnapshot']>) => boolean): Promise<ReturnType<ChangesSession['getSnapshot']>> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`not settled: ${JSON.stringify(session.getSnapshot().state)}`)), 10_000);
		const check = () => {
			const snapshot = session.getSnapshot();
			if (!done(snapshot)) return;
			clearTimeout(timer);
			unsubscribe();
			resolve(snapshot);
		};
		const unsubscribe = session.subscribe(check);
		check();
	});
}

function sessionFor(row: AppConversation) {
	return new ChangesSession({conversationKey: row.id, conversation: () => row, appBaseUrl: sim.baseUrl, secrets: [sim.apiKey]});
}

test('one request for the list, one per file opened, each diff kept until refresh', async (t) => {
	const row = rows.find((candidate) => candidate.sandbox_status === 'RUNNING' && candidate.selected_repository)!;
	const session = sessionFor(row);
	t.after(() => session.close());
	const start = requests();
	void session.refresh();
	let snapshot = await settled(session, (value) => value.state === 'ready');
	assert.equal(snapshot.files.length, 8);
	assert.ok(snapshot.files.every((file) => file.diff.state === 'idle'));
	// Where the agent works, in its agent server's words, then the list there.
	assert.deepEqual(requests(), {list: start.list + 1, files: start.files, info: start.info + 1});
	const large = snapshot.files.findIndex((file) => file.path === largeFilePath);
	await Promise.all([session.openFile(large), session.openFile(large)]);
	await session.openFile(large);
	snapshot = session.getSnapshot();
	const file = snapshot.files[large]!;
	assert.equal(file.diff.state, 'ready');
	assert.equal(file.diff.state === 'ready' && file.diff.diff.hunkStarts.length, 12);
	assert.deepEqual(requests(), {list: start.list + 1, files: start.files + 1, info: start.info + 1}, 'the same file is read once');
	assert.equal(snapshot.requests, 3);

	await session.refresh();
	snapshot = session.getSnapshot();
	assert.equal(snapshot.files[large]!.diff.state, 'idle', 'refresh drops the diffs read');
	await session.openFile(large);
	assert.deepEqual(requests(), {list: start.list + 2, files: start.files + 2, info: start.info + 2});
});

test('a sandbox that is not RUNNING: no request at all; a failing server: its words, no crash', async (t) => {
	const paused = rows.find((candidate) => candidate.sandbox_status === 'PAUSED')!;
	const session = sessionFor(paused);
	t.after(() => session.close());
	const start = requests();
	await session.refresh();
	assert.equal(session.getSnapshot().state, 'not-running');
	assert.equal(session.getSnapshot().sandboxStatus, 'PAUSED');
	assert.deepEqual(requests(), start);

	const running = rows.find((candidate) => candidate.sandbox_status === 'RUNNING' && candidate.selected_repository)!;
	const failing = sessionFor(running);
	t.after(() => failing.close());
	sim.faults.serverErrors({count: 10, status: 500});
	try {
		await failing.refresh();
	} finally {
		sim.faults.reset();
	}
	const snapshot = failing.getSnapshot();
	assert.equal(snapshot.state, 'error');
	assert.match(snapshot.error ?? '', /500/);
	assert.ok(!(snapshot.error ?? '').includes(sim.apiKey));
});
