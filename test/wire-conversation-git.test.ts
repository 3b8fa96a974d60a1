import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {AgentClient} from '../source/wire/agent-client.js';
import {agentWorkingDir} from '../source/wire/agent-workspace.js';
import {AppClient} from '../source/wire/app-client.js';
import {ConversationGit, findRepository} from '../source/wire/conversation-git.js';
import {RequestRefusedError} from '../source/wire/errors.js';
import {GitClient} from '../source/wire/git-client.js';
import {diffPathFor, repoDirCandidates} from '../source/wire/git-paths.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {Secret} from '../source/wire/secret.js';

/**
 * Where the work is, over real HTTP against the simulator's 2026 layouts (fleetShapes): the
 * repository found the way the web UI finds it (the sandbox's or the spec's working directory,
 * grouped by conversation or not, then the repository's name), read through the app server's
 * proxy with the bearer key alone, and from the agent server where the app server has no proxy.
 * Then the app server's /download, which answers while the sandbox is paused.
 */

let sim: Simulator;
let app: AppClient;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 2, fleetShapes: true});
	app = new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey), maxRetries: 0});
});
after(async () => {
	sim.faults.reset();
	await app.close();
	await sim.close();
	await closeHttpAgent();
});

const hex = 'ab'.repeat(16);

test('repoDirCandidates: the agent server\'s own working dir first; then the sandbox\'s, else its spec\'s, else /workspace/project; grouped first on a shared sandbox; then the web UI\'s rule', () => {
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/api'}), ['/workspace/project/api', `/workspace/project/${hex}/api`, '/workspace/project']);
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/api', sharedSandbox: true}), [`/workspace/project/${hex}/api`, '/workspace/project/api', '/workspace/project']);
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/api', sandboxWorkingDir: '/workspace/', specWorkingDir: '/ignored'}), ['/workspace/api', `/workspace/${hex}/api`, '/workspace/project/api', '/workspace/project']);
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'org/project/repo', specWorkingDir: '/home/openhands/workspace'}).slice(0, 1), ['/home/openhands/workspace/repo'], 'the last segment names the folder (Azure DevOps)');
	assert.deepEqual(repoDirCandidates({conversationId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`, selectedRepository: null}), ['/workspace/project', `/workspace/project/${hex}`], 'the hex form of a dashed id');
	// The case: the spec names the SDK's default folder; the agent server says where it really works.
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/web-frontend', specWorkingDir: '/home/openhands/workspace', agentWorkingDir: '/workspace/project/web-frontend/'}), [
		'/workspace/project/web-frontend',
		'/home/openhands/workspace/web-frontend',
		`/home/openhands/workspace/${hex}/web-frontend`,
		'/workspace/project',
	]);
	assert.deepEqual(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/api', agentWorkingDir: '/srv/work'}).slice(0, 2), ['/srv/work', '/srv/work/api'], 'a working dir above the repository: both');
	assert.equal(repoDirCandidates({conversationId: hex, selectedRepository: 'acme/api', agentWorkingDir: 'relative/dir'})[0], '/workspace/project/api', 'not an absolute path: left out');
});

function live(predicate: (row: SimConversation) => boolean): SimConversation {
	const found = sim.world.conversationList().find((row) => predicate(row) && sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING' && row.repository !== null);
	assert.ok(found);
	return found;
}

async function facts(conversation: SimConversation, shared: boolean) {
	const [sandbox] = await app.getSandboxes([conversation.sandboxId]);
	const [spec] = await app.getSandboxSpecs([sandbox!.sandbox_spec_id!]);
	return repoDirCandidates({conversationId: conversation.id, selectedRepository: conversation.repository, sandboxWorkingDir: sandbox?.working_dir, specWorkingDir: spec?.working_dir, sharedSandbox: shared});
}

function agentGit(conversation: SimConversation): GitClient {
	const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
	return new GitClient({baseUrl: `${sim.baseUrl}/runtime/${sandbox.number}`, sessionApiKey: new Secret(sandbox.sessionApiKey)});
}

test('the grouped layout ({working_dir}/{hex}/{repo}) of a sub-agent in its parent\'s sandbox, found through the app server\'s proxy', async () => {
	const child = live((row) => row.parentId !== null);
	const candidates = await facts(child, true);
	const before = sim.stats.byRoute['GET /runtime/:n/api/git/changes'] ?? 0;
	const git = new ConversationGit({conversationId: child.id, app, agent: () => agentGit(child)});
	const found = await findRepository(git, candidates);
	assert.equal(found.repoDir, `/workspace/project/${child.id}/${child.repository!.split('/').at(-1)}`);
	assert.deepEqual(found.tried, [found.repoDir], 'a shared sandbox: the grouped layout is the first one asked');
	assert.ok(found.list.changes.length > 0);
	assert.equal(git.route, 'app-server');
	assert.equal(sim.stats.byRoute['GET /runtime/:n/api/git/changes'] ?? 0, before, 'the agent server was not asked');
	const readme = await git.diff(diffPathFor(found.repoDir, 'README.md'));
	assert.ok(readme.original && readme.modified && readme.original !== readme.modified);
	// Without knowing the sandbox is shared, the plain layout is asked first and answers nothing.
	const unordered = await findRepository(git, await facts(child, false));
	assert.equal(unordered.repoDir, found.repoDir);
	assert.equal(unordered.tried.length, 2, 'one request more, the same repository');
});

test('a hosted sandbox\'s own working_dir (/workspace) wins over its spec\'s', async () => {
	const hosted = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.workingDir === '/workspace')!;
	assert.ok(hosted);
	const git = new ConversationGit({conversationId: hosted.id, app, agent: () => agentGit(hosted)});
	const found = await findRepository(git, await facts(hosted, false));
	assert.equal(found.repoDir, `/workspace/${hosted.repository!.split('/').at(-1)}`);
	assert.ok(found.list.changes.length > 0);
});

test('an app server without the proxy: the agent server is asked, and from then on only it', async (t) => {
	sim.faults.appGitRoutes(false);
	t.after(() => sim.faults.appGitRoutes(true));
	const conversation = live((row) => row.parentId === null && row.scenario === 'coding');
	const git = new ConversationGit({conversationId: conversation.id, app, agent: () => agentGit(conversation)});
	const proxy = () => sim.stats.byRoute['GET /api/v1/app-conversations/:id/git/changes'] ?? 0;
	const before = proxy();
	const found = await findRepository(git, await facts(conversation, true));
	assert.ok(found.list.changes.length > 0);
	assert.equal(git.route, 'agent-server');
	await git.changes(found.repoDir);
	assert.equal(proxy() - before, 1, 'the missing proxy is tried once, not once per call');
	// With no agent server to fall back to, the missing proxy's answer is what the caller gets.
	const stranded = new ConversationGit({conversationId: conversation.id, app, agent: () => null});
	await assert.rejects(stranded.changes(found.repoDir), /not found|cannot be reached/);
});

test('the proxy refuses in words: 409 while the sandbox is paused (nothing resumed)', async () => {
	const paused = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'PAUSED')!;
	const git = new ConversationGit({conversationId: paused.id, app, agent: () => null});
	const error = await git.changes('/workspace/project').then(
		() => null,
		(caught: unknown) => caught,
	);
	assert.ok(error instanceof RequestRefusedError && error.status === 409, String(error));
	assert.match(String(error.message), /paused/);
	assert.equal(sim.world.findSandbox(paused.sandboxId)?.status, 'PAUSED');
});

test('download: the stored trajectory as a zip while the sandbox is paused; null where the app server has no such route', async (t) => {
	const paused = sim.world.conversationList().find((row) => sim.world.findSandbox(row.sandboxId)?.status === 'PAUSED')!;
	const body = await app.downloadConversation(paused.id);
	assert.ok(body);
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(Buffer.from(chunk));
	const zip = Buffer.concat(chunks);
	assert.equal(zip.readUInt32LE(0), 0x04034b50, 'a zip');
	assert.ok(zip.includes(Buffer.from('meta.json')));
	assert.equal(sim.world.findSandbox(paused.sandboxId)?.status, 'PAUSED', 'nothing resumed');
	sim.faults.appDownload(false);
	t.after(() => sim.faults.appDownload(true));
	assert.equal(await app.downloadConversation(paused.id), null);
});

/** A running conversation whose spec names /home/openhands/workspace while its agent works in /workspace/project. */
function specLie(): SimConversation {
	return live((row) => {
		const sandbox = sim.world.findSandbox(row.sandboxId)!;
		return sandbox.agentWorkingDir === '/workspace/project' && !sandbox.grouped && sim.world.findSpec(sandbox.specId)?.workingDir === '/home/openhands/workspace';
	});
}

test('the agent server says where the conversation works: its repository folder, whatever the spec or grouping say', async () => {
	const lie = specLie();
	const name = lie.repository!.split('/').at(-1);
	assert.equal(await agentWorkingDir(AgentClient.fromConversation(await appConversation(lie), sim.baseUrl)), `/workspace/project/${name}`);
	const child = live((row) => row.parentId !== null);
	assert.equal(await agentWorkingDir(AgentClient.fromConversation(await appConversation(child), sim.baseUrl)), `/workspace/project/${child.id}/${child.repository!.split('/').at(-1)}`);
	// A server that cannot say (here: no such conversation, 404) is no answer, not an error.
	const unknown = {...(await appConversation(lie)), id: 'cd'.repeat(16)};
	assert.equal(await agentWorkingDir(AgentClient.fromConversation(unknown, sim.baseUrl, {maxRetries: 0})), null);
});

test('a folder that does not exist (400 git error; 502 "Agent server error: 400" through the proxy): not retried, the next folder is asked', async (t) => {
	sim.faults.gitMissingFolder('error');
	t.after(() => sim.faults.gitMissingFolder('empty'));
	const lie = specLie();
	const name = lie.repository!.split('/').at(-1);
	// Retries on, as a command has them: a wrapped 4xx must still be asked once.
	const retrying = new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)});
	t.after(() => retrying.close());
	const proxy = () => sim.stats.byRoute['GET /api/v1/app-conversations/:id/git/changes'] ?? 0;
	const direct = () => sim.stats.byRoute['GET /runtime/:n/api/git/changes'] ?? 0;
	const before = {proxy: proxy(), direct: direct()};
	const candidates = await facts(lie, false);
	assert.equal(candidates[0], `/home/openhands/workspace/${name}`, 'the spec\'s folder first, as the client did before it asked the agent server');
	const git = new ConversationGit({conversationId: lie.id, app: retrying, agent: () => agentGit(lie)});
	const found = await findRepository(git, candidates);
	assert.equal(found.repoDir, `/workspace/project/${name}`);
	assert.ok(found.list.changes.length > 0);
	assert.deepEqual(found.failed.map((entry) => entry.repoDir), [`/home/openhands/workspace/${name}`, `/home/openhands/workspace/${lie.id}/${name}`]);
	assert.match(found.failed[0]!.error, /502: Agent server error: 400/);
	assert.equal(proxy() - before.proxy, 3, 'one request per folder: the 502s were not retried');
	assert.equal(direct() - before.direct, 0, 'the agent server was not asked again directly: it had answered');

	// Without the proxy, the agent server's own 400 moves on the same way.
	sim.faults.appGitRoutes(false);
	t.after(() => sim.faults.appGitRoutes(true));
	const agentOnly = new ConversationGit({conversationId: lie.id, app: retrying, agent: () => agentGit(lie)});
	const again = await findRepository(agentOnly, candidates);
	assert.equal(again.repoDir, `/workspace/project/${name}`);
	assert.match(again.failed[0]!.error, /refused \(400: fatal: cannot change to '\/home\/openhands\/workspace\/[^']+': No such file or directory\)/);
	assert.equal(direct() - before.direct, 3, 'one request per folder');
});

test('no folder is a repository (each a git error): "answered" is false, nothing thrown; an empty folder that exists answers []', async (t) => {
	sim.faults.gitMissingFolder('error');
	t.after(() => sim.faults.gitMissingFolder('empty'));
	const lie = specLie();
	const git = new ConversationGit({conversationId: lie.id, app, agent: () => agentGit(lie)});
	const missing = await findRepository(git, ['/home/openhands/workspace/nothing', '/nowhere']);
	assert.equal(missing.answered, false);
	assert.equal(missing.failed.length, 2);
	assert.deepEqual(missing.list.changes, []);
	const empty = await findRepository(git, ['/nowhere', '/workspace/project']);
	assert.equal(empty.answered, true, 'the folder above the repository exists: [] is an answer');
	assert.equal(empty.repoDir, '/workspace/project');
	// With the SDK's own behaviour (a missing folder is "not a repository"), the same folder answers [].
	sim.faults.gitMissingFolder('empty');
	assert.deepEqual((await git.changes('/nowhere')).changes, []);
});

async function appConversation(row: SimConversation) {
	const [conversation] = await app.getConversations([row.id]);
	assert.ok(conversation);
	return conversation;
}
