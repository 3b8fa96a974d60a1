import assert from 'node:assert/strict';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {startSimulator} from '../source/simulator/server.js';
import {runCli} from './helpers/built-cli.js';
import {loopbackServer} from './helpers/loopback.js';

/**
 * The words a script's author reads when something is wrong: each says what happened and what to
 * do, never something near it (a redirect is not a refusal, a cut body is not "cannot reach").
 */

type Run = {code: number | null; stdout: string; stderr: string};

function cli(args: string[], options: {home?: string; env?: NodeJS.ProcessEnv} = {}): Promise<Run> {
	return runCli(args, {home: options.home ?? freshHome(), env: options.env ?? {}, timeoutMs: 60_000});
}

/** An empty home, removed when the file ends (312 of them were left in the temporary folder). */
function freshHome(): string {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-msg-'));
	homes.push(home);
	return home;
}

const homes: string[] = [];
after(() => {
	for (const home of homes) rmSync(home, {recursive: true, force: true});
});

function homeWithConfig(config: unknown): string {
	const home = freshHome();
	mkdirSync(join(home, 'xdg', 'agent-tui'), {recursive: true});
	const path = join(home, 'xdg', 'agent-tui', 'config.json');
	writeFileSync(path, JSON.stringify(config));
	chmodSync(path, 0o600);
	return home;
}

describe('messages', {concurrency: true}, () => {
	test('a redirect: not followed, and where it pointed', async (t) => {
		const base = await loopbackServer(t, (_request, response) => {
			response.writeHead(302, {location: 'https://login.example.test/signin?token=abc'});
			response.end();
		});
		const run = await cli(['conversations', '--base-url', base], {env: {OPENHANDS_API_KEY: 'k-123456'}});
		assert.equal(run.code, 2, run.stderr);
		assert.match(run.stderr, /redirect \(302\) to https:\/\/login\.example\.test\/signin, which was not followed/);
		assert.doesNotMatch(run.stderr, /token=abc/, 'the query may hold a credential');
	});

	test('a host and port without a scheme: add http://', async () => {
		const run = await cli(['conversations', '--base-url', 'localhost:33505']);
		assert.equal(run.code, 2);
		assert.match(run.stderr, /"localhost:33505" has no scheme; add http:\/\/ or https:\/\/ \(e\.g\. http:\/\/localhost:33505\)/);
	});

	test('events with two ids: it takes one id and got two', async () => {
		const run = await cli(['events', 'aaaa', 'bbbb', '--base-url', 'http://127.0.0.1:9']);
		assert.equal(run.code, 2);
		assert.match(run.stderr, /events takes one id \(<conversation-id>\), got two: aaaa bbbb/);
		const none = await cli(['events', '--base-url', 'http://127.0.0.1:9']);
		assert.match(none.stderr, /events needs <conversation-id>/, 'too few still says what it needs');
	});

	test('a connection closed mid-body: the server closed it mid-response, not "cannot reach"', async (t) => {
		const base = await loopbackServer(t, (_request, response) => {
			response.writeHead(200, {'content-type': 'application/json', 'content-length': '5000'});
			response.write('{"items": [');
			setTimeout(() => response.socket?.destroy(), 20);
		});
		const run = await cli(['conversations', '--base-url', base], {env: {OPENHANDS_API_KEY: 'k-123456'}});
		assert.equal(run.code, 5, run.stderr);
		assert.match(run.stderr, /closed the connection mid-response/);
		assert.doesNotMatch(run.stderr, /cannot reach/);
	});

	test('a config field of the wrong type: the zod message is shown, not [redacted]', async () => {
		const home = homeWithConfig({profiles: {work: {baseUrl: 'http://127.0.0.1:9', apiKey: 12345}}, defaultProfile: 'work'});
		const run = await cli(['conversations'], {home});
		assert.equal(run.code, 2);
		assert.match(run.stderr, /profiles\.work\.apiKey: Invalid input: expected string, received number/);
		assert.doesNotMatch(run.stderr, /\[redacted\]/);
	});

	test("a rejected key from a profile's inline apiKey names that key, not OPENHANDS_API_KEY", async (t) => {
		const sim = await startSimulator({port: 0, tickMs: 0, conversations: 2});
		t.after(() => sim.close());
		const home = homeWithConfig({profiles: {work: {baseUrl: sim.baseUrl, apiKey: 'wrong-key-0000'}}, defaultProfile: 'work'});
		const run = await cli(['conversations'], {home});
		assert.equal(run.code, 3, run.stderr);
		assert.match(run.stderr, /the key sent came from apiKey of profile "work" in \S+config\.json/);
		assert.doesNotMatch(run.stderr, /OPENHANDS_API_KEY/);
		assert.doesNotMatch(run.stderr, /wrong-key-0000/);
		// The environment's key is named as such.
		const fromEnv = await cli(['conversations', '--base-url', sim.baseUrl], {env: {OPENHANDS_API_KEY: 'also-wrong-1111'}});
		assert.equal(fromEnv.code, 3);
		assert.match(fromEnv.stderr, /the key sent came from OPENHANDS_API_KEY/);
	});

	test('--status "" and --status ,, are usage errors, not "all"', async () => {
		for (const value of ['', ',,']) {
			const run = await cli(['conversations', '--status', value, '--base-url', 'http://127.0.0.1:9'], {env: {OPENHANDS_API_KEY: 'k-123456'}});
			assert.equal(run.code, 2, `--status "${value}": ${run.stderr}`);
			assert.match(run.stderr, /--status needs a status/);
		}
	});
});
