import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {parseClockOffset} from '../source/simulator/clock.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {closeHttpAgent} from '../source/wire/http.js';
import {runCli} from './helpers/built-cli.js';
import {stillFleet} from './helpers/age-fixtures.js';
import {cliAgainst, cliHome} from './helpers/cli-sim.js';

/**
 * The headless lists against a server whose `Date` header is right while its data is written by a
 * clock weeks behind (a proxy stamps the header): one listing cannot learn the data's clock, and
 * agents at work with nothing written in 12 hours contradict the header, so no age is told (`?`,
 * and stderr says why) and no agent at work is called quiet for weeks; `sandboxes` judges its
 * ages the same way. The same world on one clock tells its ages; on one clock with nothing
 * moving, it tells them and says they are assumed (state/age-basis.ts).
 */

const home = cliHome('cli-clock');

let skewed: Simulator;
let straight: Simulator;
let still: Simulator;
before(async () => {
	const world = {port: 0, tickMs: 0, seed: 7, conversations: 24};
	skewed = await startSimulator({...world, dataClockOffsetMs: parseClockOffset('-24d31s')!});
	straight = await startSimulator(world);
	// Both clocks right, nothing moving: every agent at work has been quiet for 20 minutes.
	still = await startSimulator(world);
	stillFleet(still);
});
after(async () => {
	await skewed.close();
	await straight.close();
	await still.close();
	await closeHttpAgent();
});

const cli = (sim: Simulator, args: string[]) => cliAgainst(sim, home, args, {timeoutMs: 30_000});

/** The AGE column's cells of a table: the last but one word of each row (COST is last). */
function ages(table: string): string[] {
	const [header = '', ...rows] = table.trimEnd().split('\n');
	assert.match(header, / AGE +COST$/);
	return rows.map((row) => row.trim().split(/\s+/).at(-2) ?? '');
}

type Row = {execution_status: string | null; sandbox_status: string; cause: {kind: string} | null};

describe('headless ages on the data clock', {concurrency: true, timeout: 120_000}, () => {
	test('data weeks behind the Date header: every age is ?, stderr says why, no one at work is quiet', async () => {
		const table = await cli(skewed, ['conversations']);
		assert.equal(table.code, 0, table.stderr);
		assert.ok(ages(table.stdout).length >= 20, table.stdout);
		assert.deepEqual(new Set(ages(table.stdout)), new Set(['?']), table.stdout);
		assert.match(table.stderr, /ages are '\?': agents are at work but nothing listed was written in the 12 hours/);

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

	test('both clocks right, nothing moving: ages told, said to be assumed (stderr, JSON), agents at work quiet; no false claim about the clock', async () => {
		const table = await cli(still, ['conversations']);
		assert.equal(table.code, 0, table.stderr);
		const told = ages(table.stdout);
		assert.ok(told.length >= 20 && told.every((age) => /^\d+[smhd]$/.test(age)), table.stdout);
		assert.doesNotMatch(table.stderr, /not the data's|ages are '\?'/);
		assert.match(table.stderr, /ages assume the server's Date header/);
		const json = await cli(still, ['conversations', '--json']);
		const rows = JSON.parse(json.stdout) as Array<Row & {age_clock: string}>;
		assert.deepEqual(new Set(rows.map((row) => row.age_clock)), new Set(['assumed']));
		const atWork = rows.filter((row) => row.execution_status === 'running' && row.sandbox_status === 'RUNNING');
		assert.ok(atWork.length >= 3 && atWork.every((row) => row.cause?.kind === 'quiet'), JSON.stringify(atWork.map((row) => row.cause)));
		// The positive half: a clock the data confirms says nothing and is "known".
		const known = JSON.parse((await cli(straight, ['conversations', '--json'])).stdout) as Array<{age_clock: string}>;
		assert.deepEqual(new Set(known.map((row) => row.age_clock)), new Set(['known']));
	});

	test('sandboxes: ages on the same clock as conversations: ? on the skewed server, told on the right one, assumed on the still one', async () => {
		const sandboxAges = (table: string) => table.trimEnd().split('\n').slice(1).map((row) => row.trim().split(/\s+/).at(-1) ?? '');
		const skewedRun = await cli(skewed, ['sandboxes']);
		assert.equal(skewedRun.code, 0, skewedRun.stderr);
		assert.ok(sandboxAges(skewedRun.stdout).length >= 20);
		assert.deepEqual(new Set(sandboxAges(skewedRun.stdout)), new Set(['?']), skewedRun.stdout);
		assert.match(skewedRun.stderr, /ages are '\?'/);
		const straightRun = await cli(straight, ['sandboxes']);
		assert.ok(sandboxAges(straightRun.stdout).every((age) => /^\d+[smh]$/.test(age)), straightRun.stdout);
		assert.equal(straightRun.stderr, '');
		const stillRun = await cli(still, ['sandboxes']);
		assert.ok(sandboxAges(stillRun.stdout).every((age) => /^\d+[smh]$/.test(age)), stillRun.stdout);
		assert.match(stillRun.stderr, /ages assume the server's Date header/);
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
