import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {exitCodeFor} from '../source/commands/exit-codes.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {runCli} from './helpers/built-cli.js';

/**
 * The exit code table is a contract with scripts. Each row of the table `--help` prints is
 * provoked for real, and the row must say what provoked it; the readme lists the same codes.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-exit-'));
after(() => rmSync(home, {recursive: true, force: true}));

type Run = {code: number | null; stdout: string; stderr: string};

function cli(args: string[], key?: string): Promise<Run> {
	return runCli(args, {home, env: key ? {OPENHANDS_API_KEY: key} : {}, timeoutMs: 90_000});
}

let sim: Simulator;
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 15, seed: 5, conversations: 6, startTaskPhaseMs: 30, sandboxTransitionMs: 30});
});
after(() => sim.close());

/** The table --help prints: code -> its words (continuation lines joined). */
async function helpTable(): Promise<Map<number, string>> {
	const help = await cli(['--help']);
	const section = help.stdout.slice(help.stdout.indexOf('Exit codes'));
	const rows = new Map<number, string>();
	let current: number | null = null;
	for (const line of section.split('\n').slice(1)) {
		const row = /^ {4}(\d)  (.*)$/.exec(line);
		if (row) {
			current = Number(row[1]);
			rows.set(current, row[2]!);
		} else if (current !== null && /^ {7}\S/.test(line)) rows.set(current, `${rows.get(current)} ${line.trim()}`);
		else if (rows.size > 0) break;
	}
	return rows;
}

test('every row of the exit code table is what the code does', async () => {
	const table = await helpTable();
	const unused = await new Promise<number>((resolve) => {
		const probe = createServer();
		probe.listen(0, '127.0.0.1', () => {
			const {port} = probe.address() as AddressInfo;
			probe.close(() => resolve(port));
		});
	});
	const redirect = createServer((_request, response) => {
		response.writeHead(301, {location: 'https://elsewhere.example.test/'});
		response.end();
	});
	await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
	const redirectUrl = `http://127.0.0.1:${(redirect.address() as AddressInfo).port}`;
	const unknownId = '0123456789abcdef0123456789abcdef';

	// Each case: what provokes it, and a word of its row that names it.
	const cases: Array<{code: number; words: RegExp; run: () => Promise<Run>}> = [
		{code: 0, words: /success/, run: () => cli(['conversations', '--json', '--base-url', sim.baseUrl], sim.apiKey)},
		{code: 2, words: /bad flags/, run: () => cli(['conversations', '--no-such-flag', '--base-url', sim.baseUrl], sim.apiKey)},
		{code: 2, words: /redirect/, run: () => cli(['conversations', '--base-url', redirectUrl], 'k-123456')},
		{code: 3, words: /401\/403/, run: () => cli(['conversations', '--base-url', sim.baseUrl], 'not-the-key-0000')},
		{code: 4, words: /unknown conversation/, run: () => cli(['events', unknownId, '--base-url', sim.baseUrl], sim.apiKey)},
		{code: 5, words: /unreachable/, run: () => cli(['conversations', '--timeout', '3s', '--base-url', `http://127.0.0.1:${unused}`], 'k-123456')},
		{code: 6, words: /start task ended in ERROR/, run: () => cli(['start', '--message', 'please FAIL_START', '--repo', 'acme/missing', '--base-url', sim.baseUrl], sim.apiKey)},
	];
	try {
		const runs = await Promise.all(cases.map((entry) => entry.run()));
		for (const [index, entry] of cases.entries()) {
			const run = runs[index]!;
			assert.equal(run.code, entry.code, `case ${index} (${entry.words}): ${run.stderr}`);
			assert.match(table.get(entry.code) ?? '', entry.words, `the row for ${entry.code} says it`);
		}
	} finally {
		redirect.close();
	}
	// 1 cannot be provoked from outside without a bug: what is not a known failure maps to it.
	assert.equal(exitCodeFor(new TypeError('a bug')), 1);
	assert.match(table.get(1) ?? '', /unexpected/);

	const provoked = new Set([...cases.map((entry) => entry.code), 1]);
	assert.deepEqual([...table.keys()].sort(), [...provoked].sort(), 'every row provoked, and no code the table lacks');
	// The readme's table under "Exit codes": one `| code | meaning |` row per code, no other.
	const readme = readFileSync('readme.md', 'utf8');
	const section = readme.slice(readme.indexOf('Exit codes'), readme.indexOf('\n\n', readme.indexOf('| code | meaning |')));
	const listed = [...section.matchAll(/^\| (\d) \| [a-z]/gm)].map((match) => Number(match[1]));
	assert.deepEqual(listed.sort(), [...table.keys()].sort(), 'the readme lists every code, and only those');
});
