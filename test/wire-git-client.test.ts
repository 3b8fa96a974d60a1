import assert from 'node:assert/strict';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {RequestRefusedError} from '../source/wire/errors.js';
import {GitClient} from '../source/wire/git-client.js';
import {diffPathFor, repoDirFor} from '../source/wire/git-paths.js';
import {statusLetter} from '../source/wire/schemas/git.js';
import {Secret} from '../source/wire/secret.js';

/** The git endpoints' client over real HTTP: both route forms, the fallback, validation, errors. */

let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 1});
});
after(() => sim.close());

function clientFor(conversationIndex = 0) {
	const conversation = sim.world.conversationList().filter((row) => sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING' && row.repository)[conversationIndex]!;
	const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
	return {conversation, git: new GitClient({baseUrl: `${sim.baseUrl}/runtime/${sandbox.number}`, sessionApiKey: new Secret(sandbox.sessionApiKey)})};
}

test('repo dir rule: /workspace/project/<name> from owner/name, else /workspace/project', () => {
	assert.equal(repoDirFor('acme/invoice-parser'), '/workspace/project/invoice-parser');
	assert.equal(repoDirFor(null), '/workspace/project');
	assert.equal(repoDirFor(''), '/workspace/project');
	assert.equal(diffPathFor('/workspace/project/x/', 'docs/a b.md'), '/workspace/project/x/docs/a b.md');
});

test('query form first; with it switched off, 404 falls back to the path form and sticks to it', async () => {
	const {conversation, git} = clientFor(0);
	const dir = repoDirFor(conversation.repository);
	const list = await git.changes(dir);
	assert.equal(git.routeForm, 'query');
	assert.ok(list.changes.length >= 8);
	sim.faults.gitQueryRoutes(false);
	try {
		const older = clientFor(1).git;
		const before = sim.stats.byRoute['GET /runtime/:n/api/git/diff'] ?? 0;
		const texts = await older.diff(diffPathFor(repoDirFor(clientFor(1).conversation.repository), 'VERSION'));
		assert.equal(older.routeForm, 'path');
		assert.deepEqual(texts, {original: '2.4.2\n', modified: '2.4.3'});
		// Learnt: the second call goes straight to the path form.
		await older.diff(diffPathFor(repoDirFor(clientFor(1).conversation.repository), 'README.md'));
		assert.equal((sim.stats.byRoute['GET /runtime/:n/api/git/diff'] ?? 0) - before, 1);
	} finally {
		sim.faults.gitQueryRoutes(true);
	}
});

test('not a git repository: [] and both texts null; a bad path: 400 with the server\'s words', async () => {
	const {git} = clientFor(0);
	assert.deepEqual((await git.changes('/workspace/project')).changes, []);
	assert.deepEqual(await git.diff('/workspace/project/nothing/here.txt'), {original: null, modified: null});
	await assert.rejects(git.changes('/workspace/../etc'), (error: unknown) => error instanceof RequestRefusedError && error.status === 400 && /not an absolute path inside the sandbox/.test(error.message));
});

test('an unknown status is kept and shown as unknown; an entry without a path is flagged, not fatal', async (t) => {
	const server = createServer((_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify([{status: 'COPIED', path: 'a.txt'}, {status: 'ADDED'}, {status: 'ADDED', path: 'b.txt', extra: 1}]));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => server.close());
	const git = new GitClient({baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessionApiKey: null});
	const list = await git.changes('/workspace/project/x');
	assert.deepEqual(list.changes, [{status: 'COPIED', path: 'a.txt'}, {status: 'ADDED', path: 'b.txt'}]);
	assert.equal(list.invalid.length, 1);
	assert.equal(statusLetter('COPIED'), '?');
	assert.equal(statusLetter('MOVED'), 'R');
});

test('a 405 from the query form falls back to the path form too, with the path url-encoded in one segment', async (t) => {
	const seen: string[] = [];
	const server = createServer((request, response) => {
		seen.push(request.url ?? '');
		if ((request.url ?? '').startsWith('/api/git/changes?')) {
			response.writeHead(405, {'content-type': 'application/json', allow: 'POST'});
			response.end(JSON.stringify({detail: 'Method Not Allowed'}));
			return;
		}
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify([{status: 'MOVED', path: 'docs/new name.md'}]));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => server.close());
	const git = new GitClient({baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessionApiKey: null});
	const list = await git.changes('/workspace/project/my repo');
	assert.deepEqual(list.changes, [{status: 'MOVED', path: 'docs/new name.md'}]);
	assert.equal(git.routeForm, 'path');
	assert.deepEqual(seen, ['/api/git/changes?path=%2Fworkspace%2Fproject%2Fmy+repo', '/api/git/changes/%2Fworkspace%2Fproject%2Fmy%20repo']);
});
