import assert from 'node:assert/strict';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {test} from 'node:test';
import {runCli, startCli} from './helpers/built-cli.js';
import {simulatedCli} from './helpers/cli-sim.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * Issue 43.4: when every row of a page had a shape the client cannot read, `conversations --json`
 * printed `[]` and exited 0. Rows that cannot be read are now counted and named (id, why) on
 * stderr, and the command exits 5 (a bad answer, exit-codes.ts).
 */

const fx = simulatedCli('unreadable', {seed: 7, conversations: 5}, 60_000);
const {home, cli} = fx;

test('every row unreadable: --json prints [] but says how many could not be read, each by id, and exits 5', async () => {
	fx.sim.faults.unreadableRows(100);
	const run = await cli(['conversations', '--json']);
	assert.equal(run.code, 5, run.stderr);
	assert.deepEqual(JSON.parse(run.stdout), []);
	assert.match(run.stderr, /error: 5 conversation rows the server sent could not be read/);
	for (const row of fx.sim.world.conversationList()) assert.match(run.stderr, new RegExp(`unreadable {2}${row.id} {2}.*pr_number`));
	// One warning for the path, not one per row.
	assert.equal(run.stderr.split('\n').filter((line) => line.includes('warning: skipped an item')).length, 1, run.stderr);
	// The table says the same, and never "no conversations".
	const table = await cli(['conversations']);
	assert.equal(table.code, 5, table.stderr);
	assert.doesNotMatch(table.stderr, /no conversations/);
});

test('some rows unreadable: the others are listed, and the command still fails (exit 5)', async () => {
	fx.sim.faults.unreadableRows(2);
	const run = await cli(['conversations', '--json']);
	assert.equal(run.code, 5, run.stderr);
	assert.equal((JSON.parse(run.stdout) as unknown[]).length, 3);
	assert.match(run.stderr, /error: 2 conversation rows the server sent could not be read/);
	// All readable again: exit 0 and nothing said.
	fx.sim.faults.unreadableRows(0);
	const clean = await cli(['conversations', '--json']);
	assert.equal(clean.code, 0, clean.stderr);
	assert.equal((JSON.parse(clean.stdout) as unknown[]).length, 5);
	assert.doesNotMatch(clean.stderr, /could not be read/);
});

test('sandboxes and specs: a row that cannot be read is named, and the command exits 5', async (t) => {
	// A server whose lists carry one readable row and one that is not (a status that is a number).
	const server = createServer((request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		const sandboxes = request.url?.startsWith('/api/v1/sandboxes/search');
		const items = sandboxes
			? [{id: 'sb-good', status: 'RUNNING', sandbox_spec_id: 'spec'}, {id: 'sb-bad', status: 42}]
			: [{id: 'spec-good', command: ['run'], working_dir: '/w'}, {id: 'spec-bad', command: 'not a list'}];
		response.end(JSON.stringify({items, next_page_id: null}));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => server.close());
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	for (const [command, good, bad, noun] of [['sandboxes', 'sb-good', 'sb-bad', 'sandbox'], ['specs', 'spec-good', 'spec-bad', 'sandbox spec']] as const) {
		const run = await runCli([command, '--json', '--base-url', base], {home, env: {OPENHANDS_API_KEY: 'k-123456'}, timeoutMs: 30_000});
		assert.equal(run.code, 5, `${command}: ${run.stderr}`);
		assert.deepEqual((JSON.parse(run.stdout) as Array<{id: string}>).map((row) => row.id), [good]);
		assert.match(run.stderr, new RegExp(`error: 1 ${noun} row the server sent could not be read`));
		assert.match(run.stderr, new RegExp(`unreadable {2}${bad} `));
	}
});

test('watch: rows that cannot be read are said on stderr, not silently left out', async (t) => {
	fx.sim.faults.unreadableRows(2);
	t.after(() => fx.sim.faults.unreadableRows(0));
	const cli = startCli(['watch', '--json', '--base-url', fx.sim.baseUrl], {home, env: {OPENHANDS_API_KEY: fx.sim.apiKey}});
	t.after(() => stopChild(cli.child));
	await eventually(() => cli.stderr.includes('watching 3 conversations'), 'the baseline', {timeoutMs: 30_000, pollMs: 100, detail: cli.detail});
	await eventually(() => cli.stderr.includes('warning: 2 conversation rows the server sent could not be read'), 'the warning', {timeoutMs: 30_000, pollMs: 100, detail: cli.detail});
});
