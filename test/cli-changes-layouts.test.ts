import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {PassThrough} from 'node:stream';
import {after, before, describe, test} from 'node:test';
import {runChanges} from '../source/commands/changes.js';
import type {Io} from '../source/commands/io.js';
import {workspaceFor} from '../source/simulator/git-workspace.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {repoDirOf} from '../source/simulator/workspace-layout.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {statusLetter} from '../source/wire/schemas/git.js';
import {Secret} from '../source/wire/secret.js';
import {runCli} from './helpers/built-cli.js';
import {commandServer} from './helpers/command-server.js';

/**
 * `agent-tui changes` wherever the repository is, against the simulator's 2026 layouts
 * (fleetShapes): a spec whose `working_dir` is `/home/openhands/workspace` while its agents work
 * in `/workspace/project/<repo>`, a sandbox that groups workspaces by conversation, a hosted
 * sandbox with its own `working_dir`, and conversations without a repository. A folder that does
 * not exist answers as the hosted service was seen to: 400 `fatal: cannot change to …`, 502
 * `Agent server error: 400` through the app server's proxy. Every running conversation's files
 * are listed; a folder's git error moves on to the next folder, never retried.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-changes-layouts-'));
let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 2, fleetShapes: true});
	sim.faults.gitMissingFolder('error');
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
	rmSync(home, {recursive: true, force: true});
});

const route = (name: string) => sim.stats.byRoute[name] ?? 0;
const proxyChanges = () => route('GET /api/v1/app-conversations/:id/git/changes');
const agentInfo = () => route('GET /runtime/:n/api/conversations/:id');

function runningRows(): SimConversation[] {
	return sim.world.conversationList().filter((row) => sim.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
}

/** A running conversation on the spec that names /home/openhands/workspace while its agent works in /workspace/project. */
function specLie(withRepository: boolean): SimConversation {
	const found = runningRows().find((row) => {
		const sandbox = sim.world.findSandbox(row.sandboxId)!;
		return (row.repository !== null) === withRepository && !sandbox.grouped && sandbox.agentWorkingDir === '/workspace/project' && sim.world.findSpec(sandbox.specId)?.workingDir === '/home/openhands/workspace';
	});
	assert.ok(found, `a running conversation ${withRepository ? 'with' : 'without'} a repository on the spec that names another folder`);
	return found;
}

async function inProcess(id: string, json = true): Promise<{code: number; out: string; err: string}> {
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey)});
	const server = commandServer(sim, app, {label: 'sim'});
	const stdout = Object.assign(new PassThrough(), {isTTY: false});
	const stderr = new PassThrough();
	let out = '';
	let err = '';
	stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
	const io: Io = {stdout, stderr, secrets: [sim.apiKey], debug: false};
	try {
		const code = await runChanges(server, io, id, {json, patch: false, stat: false} as Parameters<typeof runChanges>[3]);
		return {code, out, err};
	} finally {
		await server.close();
	}
}

describe('changes wherever the repository is', () => {
	test('the issue\'s case: the spec says /home/openhands/workspace, the agent works in /workspace/project/<repo>: its files, exit 0, no retry', async () => {
		const conversation = specLie(true);
		const before = {proxy: proxyChanges(), info: agentInfo()};
		const run = await runCli(['changes', conversation.id, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 60_000});
		assert.equal(run.code, 0, run.stderr);
		const expected = workspaceFor(conversation.repository)!.files.map((file) => `${statusLetter(file.status)}\t${file.path}`);
		assert.deepEqual(run.stdout.trimEnd().split('\n'), expected);
		assert.doesNotMatch(run.stderr, /retrying|refused|502/);
		assert.equal(agentInfo() - before.info, 1, 'the agent server was asked where the conversation works');
		assert.equal(proxyChanges() - before.proxy, 1, 'and its folder was the first one asked');
	});

	test('every running conversation: its files where it has a repository (spec, grouped or hosted layout), "no git repository" where not', async () => {
		const rows = runningRows();
		const layouts = new Set<string>();
		for (const row of rows) {
			const sandbox = sim.world.findSandbox(row.sandboxId)!;
			layouts.add(sandbox.grouped ? 'grouped' : sandbox.workingDir ? 'hosted' : sandbox.agentWorkingDir ? 'spec names another folder' : 'spec');
			const run = await inProcess(row.id);
			assert.equal(run.code, 0, `${row.title}: ${run.err}`);
			const listed = JSON.parse(run.out) as Array<{status: string; path: string}>;
			if (row.repository) {
				assert.deepEqual(
					listed.map((file) => file.path).sort(),
					[...workspaceFor(row.repository)!.files.map((file) => file.path), ...sim.world.writtenFiles(row.id).map((file) => file.path)].filter((path, at, all) => all.indexOf(path) === at).sort(),
					`${row.title} (${repoDirOf(sim.world, row)})`,
				);
			} else {
				assert.deepEqual(listed, []);
				assert.match(run.err, new RegExp(`no git repository in ${repoDirOf(sim.world, row).replaceAll('/', '\\/')}`), row.title);
			}
		}
		assert.deepEqual([...layouts].sort(), ['grouped', 'hosted', 'spec', 'spec names another folder'], 'every layout was met');
	});

	test('no repository where each other folder does not exist: "no git repository in …", exit 0; each 502 asked once', async (t) => {
		const conversation = specLie(false);
		const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
		assert.ok(!sandbox.grouped);
		const before = {proxy: proxyChanges(), info: agentInfo()};
		const run = await runCli(['changes', conversation.id, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey, AGENT_TUI_DEBUG: '1'}, timeoutMs: 60_000});
		t.diagnostic(run.stderr);
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stdout, '');
		assert.match(run.stderr, /no git repository in \/workspace\/project \(nor in \/home\/openhands\/workspace, \/home\/openhands\/workspace\/[0-9a-f]{32}\)/);
		// The folders that do not exist: the proxy's 502 wrapping the agent server's 400, once each.
		assert.match(run.stderr, /\/home\/openhands\/workspace: .*502: Agent server error: 400/);
		assert.doesNotMatch(run.stderr, /retrying/);
		assert.equal(proxyChanges() - before.proxy, 3, 'one request per folder');
	});
});
