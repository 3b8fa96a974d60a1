import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {workspaceFor} from '../source/simulator/git-workspace.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {runCli, type CliRun} from './helpers/built-cli.js';
import {cliHome} from './helpers/cli-sim.js';
import {commandServer} from './helpers/command-server.js';

/**
 * `agent-tui changes` as a script runs it, over real HTTP against the simulator's git routes: the
 * app server's proxy (the bearer key alone), and, on an app server without it, the agent server's
 * routes in both forms (a newer server's query form, and an older server's path form only,
 * reached by the fallback): the list is exactly what changed, and the patch, applied by real git
 * onto the original files, gives the modified files byte for byte.
 */

const home = cliHome('changes');

let proxied: Simulator;
let newer: Simulator;
let older: Simulator;
before(async () => {
	const start = () => startSimulator({port: 0, tickMs: 0, seed: 1});
	[proxied, newer, older] = await Promise.all([start(), start(), start()]);
	// App servers before the git proxy (2026-06): the agent server is asked, in its newer or older form.
	newer.faults.appGitRoutes(false);
	older.faults.appGitRoutes(false);
	older.faults.gitQueryRoutes(false);
});
after(async () => {
	await Promise.all([proxied.close(), newer.close(), older.close()]);
});

function cli(sim: Simulator, args: string[]): Promise<CliRun<Buffer>> {
	return runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 60_000, encoding: 'buffer'});
}

function running(sim: Simulator, withRepository = true): SimConversation {
	const found = sim.world
		.conversationList()
		.find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING' && (conversation.repository !== null) === withRepository);
	assert.ok(found, `a running conversation ${withRepository ? 'with' : 'without'} a repository`);
	return found;
}

function routeCounts(sim: Simulator) {
	const count = (pattern: string) => sim.stats.byRoute[`GET /runtime/:n/api/git/${pattern}`] ?? 0;
	const proxy = (what: string) => sim.stats.byRoute[`GET /api/v1/app-conversations/:id/git/${what}`] ?? 0;
	return {queryChanges: count('changes'), pathChanges: count('changes/:path'), queryDiff: count('diff'), pathDiff: count('diff/:path'), proxyChanges: proxy('changes'), proxyDiff: proxy('diff')};
}

const forms = [
	['app server proxy', () => proxied],
	['query form', () => newer],
	['path form (older server)', () => older],
] as const;

for (const [form, sim] of forms) {
	describe(`changes over the ${form}`, () => {
		test('--json lists exactly the changed files, as the server does', async () => {
			const conversation = running(sim());
			const before = routeCounts(sim());
			const run = await cli(sim(), ['changes', conversation.id, '--json']);
			assert.equal(run.code, 0, run.stderr);
			const listed = JSON.parse(run.stdout.toString('utf8')) as Array<{status: string; path: string}>;
			const expected = workspaceFor(conversation.repository)!.files.map((file) => ({status: file.status, path: file.path}));
			assert.deepEqual(listed, expected);
			assert.ok(listed.some((file) => file.path.includes(' ') && /[^\x00-\x7f]/.test(file.path)), 'a path with a space and non-ASCII letters');
			const counts = routeCounts(sim());
			if (form === 'app server proxy') {
				assert.equal(counts.proxyChanges - before.proxyChanges, 1, 'the proxy answered');
				assert.equal(counts.queryChanges + counts.pathChanges - before.queryChanges - before.pathChanges, 0, 'the agent server was not asked');
			} else if (form === 'query form') {
				assert.equal(counts.proxyChanges - before.proxyChanges, 1, 'the missing proxy was tried once');
				assert.equal(counts.queryChanges - before.queryChanges, 1);
				assert.equal(counts.pathChanges - before.pathChanges, 0);
			} else {
				// The query form answered 404 once, then the path form answered.
				assert.equal(counts.queryChanges - before.queryChanges, 1);
				assert.equal(counts.pathChanges - before.pathChanges, 1);
			}
		});

		test('--patch piped to a file: git apply on the original files gives the modified files byte for byte', async () => {
			const conversation = running(sim());
			const files = workspaceFor(conversation.repository)!.files;
			const run = await cli(sim(), ['changes', conversation.id, '--patch']);
			assert.equal(run.code, 0, run.stderr);
			const patch = run.stdout;
			// Not a terminal: the escape sequences of the log file go out as they are.
			assert.ok(patch.includes(Buffer.from('\u001B]0;pwned\u0007')), 'the file bytes, unsanitized');
			assert.match(patch.toString('utf8'), /^diff --git "a\/docs\/caf\\303\\251 menu notes.md" "b\/docs\/caf\\303\\251 menu notes.md"$/m);
			assert.match(patch.toString('utf8'), /^\\ No newline at end of file$/m);

			const repo = mkdtempSync(join(home, 'repo-'));
			const git = (...args: string[]) => execFileSync('git', ['-c', 'core.quotePath=true', ...args], {cwd: repo, encoding: 'utf8'});
			git('init', '-q');
			for (const file of files) {
				if (file.original === null) continue;
				mkdirSync(dirname(join(repo, file.path)), {recursive: true});
				writeFileSync(join(repo, file.path), file.original);
			}
			git('add', '-A');
			git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'original');
			writeFileSync(join(home, `${form}.patch`), patch);
			git('apply', '--check', join(home, `${form}.patch`));
			git('apply', join(home, `${form}.patch`));
			for (const file of files) {
				const path = join(repo, file.path);
				if (file.modified === null) assert.ok(!existsSync(path), `${file.path} deleted`);
				else assert.ok(readFileSync(path).equals(Buffer.from(file.modified, 'utf8')), `${file.path} byte for byte`);
			}
			// Git's own totals for what was applied agree with --stat's.
			git('add', '-A');
			const gitSummary = git('diff', '--cached', '--stat=80').trimEnd().split('\n').at(-1);
			const stat = await cli(sim(), ['changes', conversation.id, '--stat']);
			assert.equal(stat.code, 0, stat.stderr);
			assert.equal(stat.stdout.toString('utf8').trimEnd().split('\n').at(-1), gitSummary);
			rmSync(repo, {recursive: true, force: true});
		});
	});
}

describe('changes: what cannot be shown', () => {
	test('a conversation without a repository: "no git repository in /workspace/project", exit 0', async () => {
		const conversation = running(newer, false);
		const [plain, json] = await Promise.all([cli(newer, ['changes', conversation.id]), cli(newer, ['changes', conversation.id, '--json'])]);
		assert.equal(plain.code, 0, plain.stderr);
		assert.equal(plain.stdout.length, 0);
		assert.match(plain.stderr, /no git repository in \/workspace\/project/);
		assert.equal(json.stdout.toString('utf8').trim(), '[]');
		// And one with a repository does print its list (the same command, not a dead one).
		const withRepo = await cli(newer, ['changes', running(newer).id]);
		assert.match(withRepo.stdout.toString('utf8'), /^A\tlogs\/agent-run\.log$/m);
	});

	test('a sandbox that is not RUNNING: a clear message, non-zero exit, nothing resumed', async () => {
		const conversation = newer.world.conversationList().find((row) => newer.world.findSandbox(row.sandboxId)?.status === 'PAUSED');
		assert.ok(conversation);
		const run = await cli(newer, ['changes', conversation.id, '--patch']);
		assert.equal(run.code, 5);
		assert.equal(run.stdout.length, 0);
		assert.match(run.stderr, /sandbox is PAUSED.*nothing was resumed.*agent-tui resume/);
		assert.equal(newer.world.findSandbox(conversation.sandboxId)?.status, 'PAUSED');
	});

	test('--json with --patch is a usage error', async () => {
		const run = await cli(newer, ['changes', running(newer).id, '--json', '--patch']);
		assert.equal(run.code, 2);
		assert.match(run.stderr, /choose one/);
	});
});

describe('changes --patch on a terminal', () => {
	test('every line is sanitized: the escape sequences of a file show as text, none is written', async () => {
		const {runChanges} = await import('../source/commands/changes.js');
		const {AppClient} = await import('../source/wire/app-client.js');
		const {Secret} = await import('../source/wire/secret.js');
		const app = new AppClient({baseUrl: newer.baseUrl, apiKey: new Secret(newer.apiKey)});
		const server = commandServer(newer, app, {label: 'sim'});
		let written = '';
		let errors = '';
		const io = {
			stdout: Object.assign(new (await import('node:stream')).Writable({write: (chunk: Buffer, _encoding, done) => ((written += chunk.toString()), done())}), {isTTY: true, columns: 100}),
			stderr: new (await import('node:stream')).Writable({write: (chunk: Buffer, _encoding, done) => ((errors += chunk.toString()), done())}),
			secrets: [],
			debug: false,
		};
		const flags = {json: false, patch: true, stat: false} as Parameters<typeof runChanges>[3];
		try {
			assert.equal(await runChanges(server, io, running(newer).id, flags), 0, errors);
		} finally {
			await server.close();
		}
		assert.match(written, /^\+␛\]0;pwned␇window title changed by the test runner$/m);
		assert.match(written, /^diff --git a\/logs\/agent-run\.log b\/logs\/agent-run\.log$/m, 'still the patch');
		assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(written), 'no control character reaches the terminal');
	});
});
