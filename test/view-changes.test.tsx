import assert from 'node:assert/strict';
import {after, before, test, type TestContext} from 'node:test';
import stringWidth from 'string-width';
import {computeFileDiff} from '../source/format/file-diff.js';
import {createChangesOpener} from '../source/state/changes-session.js';
import {createDashboard} from '../source/state/dashboard-store.js';
import {hostileFilePath, largeFilePath, workspaceFor} from '../source/simulator/git-workspace.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {normalizeId} from '../source/wire/ids.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, fleetSeeds, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {specFolderMismatch} from './helpers/folder-mismatch.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/**
 * The Changes view (`d`) on the real store against the simulator over loopback: the list, a
 * 5,000-line file's diff paged and jumped through by hunk and by file, an escape sequence in a
 * file shown as text, one request for the list and one per file opened; a paused sandbox offers
 * the resume key and sends nothing.
 */

let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, seed: 1, tickMs: 0});
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
});

/** Git requests, through the app server's proxy (the way now) or to an agent server directly. */
function gitRequests() {
	const byRoute = sim.stats.byRoute;
	const sum = (...names: string[]) =>
		names.reduce((total, name) => total + (byRoute[`GET /runtime/:n/api/git/${name}`] ?? 0) + (byRoute[`GET /api/v1/app-conversations/:id/git/${name}`] ?? 0), 0);
	return {list: sum('changes', 'changes/:path'), files: sum('diff', 'diff/:path')};
}

/** The real store against `simulator`, drawn at `columns`x24, the list filtered to `conversationFilter` if given. */
function dashboardOn(t: TestContext, simulator: Simulator, conversationFilter?: string, columns = 80) {
	const appClient = new AppClient({baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: simulator.baseUrl, serverLabel: 'sim', demo: false, flushMs: 20, budget: {perSecond: 200, perMinute: 10_000}});
	t.after(() => controller.close());
	const initialView = conversationFilter === undefined ? undefined : {conversationFilter};
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} initialView={initialView} />, {columns, rows: 24});
	t.after(() => rendered.unmount());
	return {store, controller, rendered};
}

/**
 * The fixture fleet (`seeds`) drawn at `columns`x24 on "Refactor the CLI flags", whose sandbox is
 * not running: a Changes opener whose every request is recorded in `requested` and refused.
 */
async function notRunning(t: TestContext, seeds: ReturnType<typeof fleetSeeds>, columns: number, refusal: string) {
	const store = fixtureStore(fixtureSnapshot({}, seeds));
	const requested: string[] = [];
	const controller = Object.assign(
		recordingController(),
		createChangesOpener({
			appBaseUrl: 'http://127.0.0.1:9',
			secrets: [],
			conversation: (key) => store.getSnapshot().conversations.get(key)?.conversation,
			client: () => {
				requested.push('client');
				throw new Error(refusal);
			},
		}),
	);
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} initialView={{conversationFilter: 'Refactor the CLI'}} />, {columns, rows: 24});
	t.after(() => rendered.unmount());
	await waitForFrame(rendered.lastFrame, (frame) => /› .*Refactor the CLI flags/.test(frame));
	return {controller, rendered, requested};
}

test('d lists the changed files; enter, ]/[, pgdn, G, }/{ page through the diffs; requests: 1 + 1 per file opened', async (t) => {
	const {rendered} = dashboardOn(t, sim);
	// The attention order puts a running conversation with a repository first (waiting for you).
	const first = await waitForFrame(rendered.lastFrame, (frame) => /› /.test(frame) && frame.includes('waiting'), {timeoutMs: 20_000});
	assert.ok(first);
	const selectedTitle = (/› .*?\S.{0,10}/.exec(first) ?? [''])[0];
	assert.ok(selectedTitle);
	const start = gitRequests();

	let frame = await press(rendered, 'd', (text) => text.includes('Changes ·') && text.includes(hostileFilePath), 'the list of changed files');
	const repoName = /Changes · \/workspace\/project\/(\S+)/.exec(frame)?.[1];
	const repository = sim.world.conversationList().find((row) => row.repository?.endsWith(`/${repoName}`))?.repository ?? null;
	const files = workspaceFor(repository)!.files;
	assert.match(frame, /› M README\.md +\?/);
	assert.match(frame, /D docs\/legacy-setup\.md +\?/);
	assert.match(frame, /M docs\/café menu notes\.md +\?/);
	assert.match(frame, /8 files/);
	assert.match(frame, /enter diff/);
	assert.deepEqual(gitRequests(), {list: start.list + 1, files: start.files}, 'one request for the list, none per file');
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= 80, `too wide: ${line}`);

	const large = files.findIndex((file) => file.path === largeFilePath);
	const expected = computeFileDiff(files[large]!.original, files[large]!.modified);
	assert.equal(expected.hunkStarts.length, 12);
	const letter = {ADDED: 'A', DELETED: 'D', UPDATED: 'M'} as const;
	for (let step = 1; step <= large; step++) await press(rendered, 'j', (text) => text.includes(`› ${letter[files[step]!.status]} ${files[step]!.path}`));
	frame = await press(rendered, keys.enter, (text) => text.includes(`hunk 1/12 · rows 1-`), 'the large diff');
	assert.match(frame, new RegExp(`M ${largeFilePath} \\+${expected.added} -${expected.removed} · file ${large + 1}/8`));
	assert.match(frame, /^ *198 +198 +\{"id": 196, "sku": "SKU-00196"/m, 'context rows carry both line numbers');
	assert.match(frame, /] next hunk/);
	assert.deepEqual(gitRequests(), {list: start.list + 1, files: start.files + 1});

	frame = await press(rendered, ']', (text) => text.includes('hunk 2/12'));
	assert.match(frame, new RegExp(`rows ${expected.hunkStarts[1]! + 1}-`));
	frame = await press(rendered, ']', (text) => text.includes('hunk 3/12'));
	frame = await press(rendered, '[', (text) => text.includes('hunk 2/12'));
	frame = await press(rendered, keys.pageDown, (text) => !text.includes(`rows ${expected.hunkStarts[1]! + 1}-`));
	frame = await press(rendered, 'G', (text) => text.includes(`-${expected.rows.length} of ${expected.rows.length}`));
	assert.match(frame, /@@ -4598,8 \+4900,6 @@/, 'the last hunk is on the last page');
	frame = await press(rendered, 'g', (text) => text.includes('hunk 1/12 · rows 1-'));
	await press(rendered, ']', (text) => text.includes('hunk 2/12'));

	// The next file holds escape sequences: shown as text, never written to the terminal.
	frame = await press(rendered, '}', (text) => text.includes(`A ${hostileFilePath}`) && text.includes('pwned'));
	assert.match(frame, /␛\]0;pwned␇window title changed/);
	assert.match(frame, /␛\[2J␛\[Hscreen cleared/);
	for (const written of rendered.stdout.frames) {
		assert.ok(!written.includes('\u001B]0;pwned'), 'no title change reaches the terminal');
		assert.ok(!written.includes('\u001B]52;'), 'no clipboard write reaches the terminal');
		assert.ok(!written.includes('\u001B[2J'), 'no screen clear reaches the terminal');
	}
	// Back to the large file: where it was left, not re-read.
	frame = await press(rendered, '{', (text) => text.includes(`M ${largeFilePath}`) && text.includes('hunk 2/12'));
	assert.deepEqual(gitRequests(), {list: start.list + 1, files: start.files + 2}, 'each file read once');

	frame = await press(rendered, keys.escape, (text) => text.includes('status, path, lines added'));
	assert.match(frame, new RegExp(`› M ${largeFilePath.replace('.', '\\.')} +\\+${expected.added} -${expected.removed}`));
	assert.match(frame, /A logs\/agent-run\.log +\+7 -0/);
	assert.match(frame, /M README\.md +\?/, 'files not opened still cost nothing');
	frame = await press(rendered, keys.escape, (text) => !text.includes('Changes ·'));
	assert.match(frame, /› /);
});

test('the conversation without a repository says "no git repository in /workspace/project"', async (t) => {
	const quiet = sim.world.conversationList().find((row) => row.repository === null && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	assert.ok(quiet);
	const {store, rendered} = dashboardOn(t, sim, quiet.title);
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('1 of 24') && /› .*Profile|› /.test(frame), {timeoutMs: 20_000});
	assert.ok(store.getSnapshot().conversations.has(normalizeId(quiet.id)));
	const frame = await press(rendered, 'd', (text) => text.includes('no git repository in /workspace/project'));
	assert.match(frame, /Changes · \/workspace\/project · /);
});

test('a paused sandbox: said so, r asks to resume it, and nothing is requested or resumed', async (t) => {
	const {controller, rendered, requested} = await notRunning(t, fleetSeeds(), 80, 'no request may be sent for a paused sandbox');
	let frame = await press(rendered, 'd', (text) => text.includes('The sandbox is PAUSED'));
	assert.match(frame, /r resumes it \(asks first\); nothing is resumed on its own/);
	assert.deepEqual(requested, []);
	frame = await press(rendered, 'r', (text) => text.includes('[y/n]'));
	assert.match(frame, /Resume sandbox/i);
	assert.equal(controller.calls.filter((call) => call.method === 'resumeSandbox').length, 0, 'asked, not done');
	await press(rendered, 'n', (text) => !text.includes('[y/n]'));
	assert.equal(controller.calls.filter((call) => call.method === 'resumeSandbox').length, 0);
	assert.equal(hexId(6).length, 32);
});

test('an ERROR sandbox: the Changes view says it cannot be resumed, as r then does; no resume hint, nothing requested', async (t) => {
	const seeds = fleetSeeds().map((seed) => (seed.id === hexId(6) ? {...seed, sandbox: 'ERROR'} : seed));
	const {controller, rendered, requested} = await notRunning(t, seeds, 100, 'no request may be sent for a sandbox that is not running');
	let frame = await press(rendered, 'd', (text) => text.includes('The sandbox is ERROR'));
	assert.match(frame, /It is failed \(ERROR\): it cannot be resumed/);
	assert.doesNotMatch(frame, /r resumes it/);
	frame = await press(rendered, 'r', (text) => /cannot be resumed/.test(text.replace(/It is failed \(ERROR\): it cannot be resumed/, '')));
	assert.doesNotMatch(frame, /\[y\/n\]/, 'r asks nothing: it says it cannot');
	assert.equal(controller.calls.filter((call) => call.method === 'resumeSandbox').length, 0);
	assert.deepEqual(requested, []);
});

test('d on a conversation whose spec names /home/openhands/workspace while its agent works in /workspace/project: its files, no error', async (t) => {
	const fleet = await startSimulator({port: 0, seed: 2, tickMs: 0, fleetShapes: true});
	t.after(() => fleet.close());
	fleet.faults.gitMissingFolder('error');
	const lie = specFolderMismatch(fleet);
	const {store, rendered} = dashboardOn(t, fleet, lie.title, 100);
	await waitForFrame(rendered.lastFrame, (frame) => /› /.test(frame) && frame.includes(lie.title.slice(0, 20)) && store.getSnapshot().sandboxesListed, {timeoutMs: 20_000});
	const name = lie.repository!.split('/').at(-1)!;
	const frame = await press(rendered, 'd', (text) => text.includes(`Changes · /workspace/project/${name}`) && text.includes(hostileFilePath), 'the changed files');
	assert.match(frame, /M README\.md +\?/);
	assert.match(frame, /8 files/);
	assert.doesNotMatch(frame, /Could not read|no git repository|cannot change/);
});
