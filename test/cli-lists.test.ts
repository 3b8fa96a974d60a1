import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli} from './helpers/built-cli.js';

/**
 * The list commands and sandbox actions against a real simulator over HTTP: every page, status
 * filters, sanitized tables, keys never printed, pause and resume as they really behave.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-cli-'));
after(() => rmSync(home, {recursive: true, force: true}));

type Run = {code: number | null; stdout: string; stderr: string};

let sim: Simulator;
before(async () => {
	// No ticking: statuses stay put, so the CLI's answer can be compared with the world.
	sim = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 250, sandboxTransitionMs: 50});
});
after(async () => {
	await sim.close();
	await closeHttpAgent();
});

function cli(args: string[]): Promise<Run> {
	return runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 30_000});
}

type Row = {id: string; sandbox_status: string; execution_status: string | null; session_api_key: string | null; title: string | null};

function sessionKeys(): string[] {
	return sim.world.sandboxList().map((sandbox) => sandbox.sessionApiKey);
}

describe('list commands', {concurrency: true}, () => {
	test('conversations --json: one array with every conversation of every page, keys redacted', async () => {
		const run = await cli(['conversations', '--json']);
		assert.equal(run.code, 0, run.stderr);
		assert.equal(run.stderr, '');
		const rows = JSON.parse(run.stdout) as Row[];
		assert.equal(rows.length, 250);
		assert.deepEqual(
			rows.map((row) => row.id),
			sim.world.conversationList().map((conversation) => conversation.id),
		);
		assert.ok(rows.some((row) => row.session_api_key === '[redacted]'));
		assert.ok(rows.every((row) => row.session_api_key === null || row.session_api_key === '[redacted]'));
		for (const key of sessionKeys()) assert.ok(!run.stdout.includes(key), 'no session key value in the output');
		// Each row carries the cause the dashboard's queue groups it by: null when nothing needs a person.
		const causes = rows.map((row) => (row as Row & {cause: {key: string} | null}).cause);
		assert.ok(causes.every((cause) => cause === null || typeof cause.key === 'string'));
		const waiting = rows.findIndex((row) => row.execution_status === 'waiting_for_confirmation');
		assert.equal(causes[waiting]?.key, 'approval');
		assert.ok(causes.some((cause) => cause === null));
		// An errored row's cause is its error's class, read like error_cause.
		const errored = rows.findIndex((row) => row.execution_status === 'error' && (row as Row & {error_cause: {classification: unknown} | null}).error_cause?.classification);
		assert.ok(errored >= 0, 'the seeded crash has a classified error');
		assert.match(String(causes[errored]?.key), /^error:(auth|quota|rate_limit|config|transient|agent_action|internal|unknown)$/);
	});

	test('conversations --status: agent statuses bare, sandbox statuses as sandbox:S, any case', async () => {
		const filtered = await cli(['conversations', '--json', '--status', 'paused', '--status', 'Missing,WAITING_FOR_CONFIRMATION']);
		assert.equal(filtered.code, 0, filtered.stderr);
		const rows = JSON.parse(filtered.stdout) as Row[];
		// The server's own list, read in-process. `paused` is the agent's status in any case;
		// `Missing` can only be a sandbox's.
		const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
		const all = await app.listConversations();
		const expected = all.filter(
			(row) => row.execution_status === 'paused' || row.execution_status === 'waiting_for_confirmation' || row.sandbox_status === 'MISSING',
		);
		assert.ok(expected.length > 0, 'the seed has such conversations');
		assert.deepEqual(
			rows.map((row) => row.id),
			expected.map((row) => row.id),
		);

		const lower = await cli(['conversations', '--json', '--status', 'error']);
		const upper = await cli(['conversations', '--json', '--status', 'ERROR']);
		assert.equal(lower.stdout, upper.stdout, '--status is case-insensitive');
		assert.ok((JSON.parse(upper.stdout) as Row[]).every((row) => row.execution_status === 'error'));

		const sandboxOnly = await cli(['conversations', '--json', '--status', 'sandbox:PAUSED']);
		const paused = JSON.parse(sandboxOnly.stdout) as Row[];
		assert.ok(paused.length > 0);
		assert.ok(paused.every((row) => row.sandbox_status === 'PAUSED'));
		assert.equal(paused.length, all.filter((row) => row.sandbox_status === 'PAUSED').length);

		for (const empty of ['', ',,']) {
			const bad = await cli(['conversations', '--status', empty]);
			assert.equal(bad.code, 2, `--status ${JSON.stringify(empty)} is an error`);
			assert.match(bad.stderr, /--status needs a status/);
			assert.equal(bad.stdout, '');
		}
	});

	test('conversations --status with a status this client does not know: exit 0, those rows, a warning', async () => {
		const target = sim.world.conversationList().find((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING')!;
		// Built first: building the agent sets the status its script starts in.
		sim.world.agent(target);
		target.executionStatus = 'archived_v9';
		const run = await cli(['conversations', '--status', 'archived_v9', '--json']);
		assert.equal(run.code, 0, run.stderr);
		const rows = JSON.parse(run.stdout) as Row[];
		assert.deepEqual(rows.map((row) => row.id), [target.id]);
		assert.match(run.stderr, /"archived_v9" is not a known status/);

		const typo = await cli(['conversations', '--status', 'runing', '--json']);
		assert.equal(typo.code, 0);
		assert.match(typo.stderr, /did you mean "running"\?/);
	});

	test('conversations (table): aligned, sanitized, one row each', async () => {
		const target = sim.world.conversationList()[3]!;
		target.title = 'evil\u001b]52;c;aGVsbG8=\u0007 title\u001b[2J\u202e';
		const run = await cli(['conversations']);
		assert.equal(run.code, 0, run.stderr);
		const lines = run.stdout.trimEnd().split('\n');
		assert.equal(lines.length, 251);
		assert.match(lines[0]!, /^ID\s+SANDBOX\s+AGENT\s+TITLE\s+REPO\s+AGE\s+COST$/);
		assert.doesNotMatch(run.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'no control characters reach the terminal');
		const row = lines.find((line) => line.startsWith(target.id.slice(0, 8)))!;
		assert.match(row, /evil␛\]52;c;aGVsbG8=␇ title␛\[2J/);
		const titleColumn = lines[0]!.indexOf('TITLE');
		assert.ok(lines.slice(1).every((line) => line.length > titleColumn && line[titleColumn - 1] === ' '), 'columns line up');
	});

	test('sandboxes: JSON with keys redacted, and a table', async () => {
		const [json, table] = await Promise.all([cli(['sandboxes', '--json']), cli(['sandboxes'])]);
		assert.equal(json.code, 0, json.stderr);
		const rows = JSON.parse(json.stdout) as Array<{id: string; status: string; session_api_key: string | null}>;
		assert.deepEqual(new Set(rows.map((row) => row.id)), new Set(sim.world.sandboxList().map((sandbox) => sandbox.id)));
		assert.ok(rows.some((row) => row.session_api_key === '[redacted]'));
		for (const key of sessionKeys()) assert.ok(!json.stdout.includes(key));
		assert.equal(table.code, 0, table.stderr);
		assert.match(table.stdout.split('\n')[0]!, /^ID\s+STATUS\s+REASON\s+SPEC\s+AGE$/);
		assert.equal(table.stdout.trimEnd().split('\n').length, rows.length + 1);
	});

	test('specs: JSON and a table', async () => {
		const [json, table] = await Promise.all([cli(['specs', '--json']), cli(['specs'])]);
		assert.equal(json.code, 0, json.stderr);
		const rows = JSON.parse(json.stdout) as Array<{id: string}>;
		assert.deepEqual(
			rows.map((row) => row.id).sort(),
			sim.world.specs.map((spec) => spec.id).sort(),
		);
		assert.match(table.stdout.split('\n')[0]!, /^ID\s+WORKING DIR\s+COMMAND$/);
	});
});

describe('pause and resume', () => {
	test('pause: asked, asynchronous, then PAUSED', async () => {
		const running = sim.world.sandboxList().find((sandbox) => sandbox.status === 'RUNNING')!;
		const run = await cli(['pause', running.id]);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /pause requested for sandbox .* \(was RUNNING\); the status changes asynchronously/);
		assert.match(run.stdout, new RegExp(`sandbox ${running.id} is now PAUSED`));
		assert.equal(sim.world.findSandbox(running.id)?.status, 'PAUSED');
	});

	test('resume: RUNNING, and the sandbox the server paused to make room is named', async () => {
		const list = sim.world.sandboxList();
		// Fill the cap so the server must pause the oldest running sandbox to resume this one.
		const runningCount = list.filter((sandbox) => sandbox.status === 'RUNNING').length;
		sim.world.options.maxRunningSandboxes = runningCount;
		const paused = list.find((sandbox) => sandbox.status === 'PAUSED')!;
		const run = await cli(['resume', paused.id]);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /resume requested for sandbox .* \(was PAUSED\); the status changes asynchronously/);
		assert.match(run.stdout, new RegExp(`sandbox ${paused.id} is now RUNNING`));
		assert.match(run.stdout, /sandbox \S+ was PAUSED by the server to make room/);
	});

	test('an unknown sandbox: exit 4', async () => {
		const run = await cli(['resume', 'sb-does-not-exist']);
		assert.equal(run.code, 4, run.stderr);
		assert.match(run.stderr, /^agent-tui: no sandbox with id sb-does-not-exist\n$/);
	});
});
