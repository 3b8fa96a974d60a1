import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {ExitCode, exitCodeFor} from '../source/commands/exit-codes.js';
import {runExport} from '../source/commands/export.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {commandOn} from './helpers/command-server.js';

/**
 * `export` over real HTTP: the trajectory zip where the agent server has it, every event as JSON
 * from the agent server where it has not, and from the app server's stored copy for a
 * conversation whose sandbox is stopped (which stays stopped).
 */

let sim: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'agent-tui-export-'));
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 3, conversations: 30});
	// Run the agents ahead so the long-running one has several pages of history.
	sim.step(150);
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
	rmSync(dir, {recursive: true, force: true});
});

const harness = (tty = false) => commandOn(sim, {tty});

function running() {
	const live = sim.world.conversationList().filter((row) => sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	const longest = live.map((row) => ({row, events: sim.world.events(row).length})).sort((a, b) => b.events - a.events)[0];
	// More than one page, so the export has to walk the pages.
	assert.ok(longest && longest.events > 100, 'a live conversation with a long history');
	return longest.row;
}

test('a running conversation: the trajectory zip, whole, with one entry per event', async () => {
	const conversation = running();
	const file = join(dir, 'trajectory.zip');
	const {server, io, err} = harness();
	assert.equal(await runExport(server, io, conversation.id, file), 0);
	const zip = readFileSync(file);
	assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
	// The end-of-central-directory record says how many entries: metadata plus every event.
	assert.equal(zip.readUInt16LE(zip.length - 22 + 10), sim.world.events(conversation).length + 1);
	assert.equal(statSync(file).mode & 0o777, 0o600);
	assert.match(err(), /the service's trajectory \(zip, \d+ bytes\) written to/);
	await server.close();
});

test('no trajectory download (404): every event as JSON from the agent server, keys redacted', async () => {
	const conversation = running();
	sim.faults.noTrajectory(true);
	try {
		const {server, io, out, err} = harness();
		assert.equal(await runExport(server, io, conversation.id, undefined), 0);
		const record = JSON.parse(out().toString()) as {source: string; conversation: {id: string}; events: Array<{id: string}>};
		assert.equal(record.source, 'agent-server');
		assert.equal(record.conversation.id, conversation.id);
		assert.deepEqual(record.events.map((event) => event.id), sim.world.events(conversation).map((event) => event.id));
		const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
		assert.ok(!out().toString().includes(sandbox.sessionApiKey), 'the session key is not in the export');
		assert.match(err(), /events as JSON from the agent server/);
		await server.close();
	} finally {
		sim.faults.noTrajectory(false);
	}
});

test('a stopped conversation: the app server\'s /download zip (it answers while PAUSED), and its sandbox is not resumed', async () => {
	const conversation = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'PAUSED' && sim.world.events(row).length > 0)!;
	assert.ok(conversation, 'a paused conversation with history');
	const file = join(dir, 'stopped.zip');
	const {server, io, err} = harness();
	assert.equal(await runExport(server, io, conversation.id, file), 0);
	const zip = readFileSync(file);
	assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
	assert.equal(zip.readUInt16LE(zip.length - 22 + 10), sim.world.events(conversation).length + 1, 'metadata plus every stored event');
	assert.match(err(), /the service's trajectory \(zip, \d+ bytes from the app server's stored copy\) written to/);
	assert.equal(sim.stats.byRoute['GET /api/v1/app-conversations/:id/download'], 1);
	assert.equal(sim.world.findSandbox(conversation.sandboxId)?.status, 'PAUSED');
	assert.equal(sim.stats.byRoute['POST /api/v1/sandboxes/:id/resume'] ?? 0, 0, 'nothing resumed');
	await server.close();
});

test('a stopped conversation on an app server without /download: every event as JSON from the stored copy, nothing resumed', async (t) => {
	sim.faults.appDownload(false);
	t.after(() => sim.faults.appDownload(true));
	const conversation = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'PAUSED' && sim.world.events(row).length > 0)!;
	assert.ok(conversation, 'a paused conversation with history');
	const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
	const stored = sim.stats.byRoute['GET /api/v1/conversation/:id/events/search'] ?? 0;
	const file = join(dir, 'stopped.json');
	const {server, io} = harness();
	assert.equal(await runExport(server, io, conversation.id.slice(0, 12), file), 0);
	const record = JSON.parse(readFileSync(file, 'utf8')) as {source: string; events: Array<{id: string}>};
	assert.equal(record.source, 'app-server');
	assert.deepEqual(record.events.map((event) => event.id), sim.world.events(conversation).map((event) => event.id));
	assert.ok((sim.stats.byRoute['GET /api/v1/conversation/:id/events/search'] ?? 0) > stored, 'read from the stored copy');
	assert.equal(sandbox.status, 'PAUSED');
	assert.equal(sim.stats.byRoute['POST /api/v1/sandboxes/:id/resume'] ?? 0, 0, 'nothing resumed');
	await server.close();
});

test('a terminal as stdout: refused (a zip is not for the screen), nothing fetched', async () => {
	const {server, io, out} = harness(true);
	const before = sim.stats.byRoute['GET /runtime/:n/api/file/download-trajectory/:id'] ?? 0;
	const error = await runExport(server, io, running().id, undefined).then(
		() => assert.fail('expected a refusal'),
		(failure: Error) => failure,
	);
	assert.match(error.message, /give -o FILE or redirect stdout/);
	assert.equal(exitCodeFor(error), ExitCode.usage);
	assert.equal(out().length, 0);
	assert.equal(sim.stats.byRoute['GET /runtime/:n/api/file/download-trajectory/:id'] ?? 0, before);
	await server.close();
});

test('a running conversation whose agent server answers the download with a web page: the app server\'s /download zip, exit 0', async (t) => {
	sim.faults.trajectoryPage(true);
	t.after(() => sim.faults.trajectoryPage(false));
	const conversation = running();
	const route = (path: string) => sim.stats.byRoute[path] ?? 0;
	const before = {agent: route('GET /runtime/:n/api/file/download-trajectory/:id'), app: route('GET /api/v1/app-conversations/:id/download')};
	const file = join(dir, 'web-page.zip');
	const {server, io, err} = harness();
	assert.equal(await runExport(server, io, conversation.id, file), 0, err());
	const zip = readFileSync(file);
	assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'a zip, not the web page');
	assert.equal(zip.readUInt16LE(zip.length - 22 + 10), sim.world.events(conversation).length + 1, 'metadata plus every stored event');
	assert.match(err(), /answered the trajectory download with a web page/);
	assert.match(err(), /from the app server's stored copy\) written to/);
	assert.equal(route('GET /runtime/:n/api/file/download-trajectory/:id') - before.agent, 1, 'the agent server was asked once');
	assert.equal(route('GET /api/v1/app-conversations/:id/download') - before.app, 1, 'then the app server');
	await server.close();
});
