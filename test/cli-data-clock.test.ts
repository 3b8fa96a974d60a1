import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {parseClockOffset} from '../source/simulator/clock.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli} from './helpers/built-cli.js';

/**
 * The headless lists against a server whose `Date` header is right while its data is written by a
 * clock three hours behind (a proxy stamps the header): one listing cannot learn the data's clock,
 * so no age is told (`?`, and stderr says why) and no agent at work is called quiet for 3h. The
 * same world on one clock tells its ages.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-cli-clock-'));
after(() => rmSync(home, {recursive: true, force: true}));

let skewed: Simulator;
let straight: Simulator;
before(async () => {
	const world = {port: 0, tickMs: 0, seed: 7, conversations: 24};
	skewed = await startSimulator({...world, dataClockOffsetMs: parseClockOffset('-3h')!});
	straight = await startSimulator(world);
});
after(async () => {
	await skewed.close();
	await straight.close();
	await closeHttpAgent();
});

const cli = (sim: Simulator, args: string[]) => runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 30_000});

/** The AGE column's cells of a table: the last but one word of each row (COST is last). */
function ages(table: string): string[] {
	const [header = '', ...rows] = table.trimEnd().split('\n');
	assert.match(header, / AGE +COST$/);
	return rows.map((row) => row.trim().split(/\s+/).at(-2) ?? '');
}

type Row = {execution_status: string | null; sandbox_status: string; cause: {kind: string} | null};

describe('headless ages on the data clock', {concurrency: true, timeout: 120_000}, () => {
	test('data three hours behind the Date header: every age is ?, stderr says why, no one at work is quiet', async () => {
		const table = await cli(skewed, ['conversations']);
		assert.equal(table.code, 0, table.stderr);
		assert.ok(ages(table.stdout).length >= 20, table.stdout);
		assert.deepEqual(new Set(ages(table.stdout)), new Set(['?']), table.stdout);
		assert.match(table.stderr, /ages are '\?': agents are at work but none/);

		const json = await cli(skewed, ['conversations', '--json']);
		assert.equal(json.code, 0, json.stderr);
		const rows = JSON.parse(json.stdout) as Row[];
		const atWork = rows.filter((row) => row.execution_status === 'running' && row.sandbox_status === 'RUNNING');
		assert.ok(atWork.length > 0, 'the world has agents at work');
		assert.deepEqual(atWork.filter((row) => row.cause?.kind === 'quiet'), [], 'no agent at work is quiet for the skew');
		// The causes that need no age are still there.
		assert.ok(rows.some((row) => row.cause?.kind === 'approval'), json.stdout.slice(0, 400));
	});

	test('the same world on one clock: ages told, nothing said', async () => {
		const table = await cli(straight, ['conversations']);
		assert.equal(table.code, 0, table.stderr);
		assert.equal(table.stderr, '');
		const told = ages(table.stdout);
		assert.ok(told.length >= 20 && told.every((age) => /^\d+[smhd]$/.test(age)), table.stdout);
	});

	test('every profile at once: the skewed server\'s ages are ?, the other\'s are told', async () => {
		const dir = mkdtempSync(join(home, 'xdg-'));
		const config = join(dir, 'agent-tui');
		mkdirSync(config, {recursive: true});
		writeFileSync(join(config, 'config.json'), JSON.stringify({profiles: {skew: {baseUrl: skewed.baseUrl, apiKey: skewed.apiKey}, same: {baseUrl: straight.baseUrl, apiKey: straight.apiKey}}}), {mode: 0o600});
		const run = await runCli(['conversations', '--all-profiles'], {home, env: {XDG_CONFIG_HOME: dir}, timeoutMs: 30_000});
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stderr, /skew: ages are '\?'/);
		assert.doesNotMatch(run.stderr, /same: ages/);
		const lines = run.stdout.trimEnd().split('\n');
		const byServer = (name: string) => ages([lines[0]!, ...lines.slice(1).filter((line) => line.startsWith(`${name} `))].join('\n'));
		assert.deepEqual(new Set(byServer('skew')), new Set(['?']));
		assert.ok(byServer('same').every((age) => /^\d+[smhd]$/.test(age)), run.stdout);
	});
});
