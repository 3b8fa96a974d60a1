import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {cliArgs} from './helpers/built-cli.js';

/**
 * A server that trickles its answer one byte a second used to cost 602 s before exit 5 (a
 * 120 s body deadline, five tries). A one-shot read now gives up inside 60 s: a 20 s body
 * deadline, and no try started that could not end inside the call's 45 s.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-deadline-'));
after(() => rmSync(home, {recursive: true, force: true}));

test('a server trickling 1 byte/s ends a one-shot read with exit 5 inside 60 s', async (t) => {
	let requests = 0;
	const server = createServer((_request, response) => {
		requests++;
		response.writeHead(200, {'content-type': 'application/json'});
		response.write('{');
		const timer = setInterval(() => response.write(' '), 1000);
		response.on('close', () => clearInterval(timer));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => {
		server.closeAllConnections();
		server.close();
	});
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const env: NodeJS.ProcessEnv = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), OPENHANDS_API_KEY: 'k-123456'};
	delete env.CI;
	delete env.OPENHANDS_BASE_URL;
	const started = Date.now();
	const run = await new Promise<{code: number | null; stderr: string}>((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs(), 'conversations', '--base-url', base], {cwd: process.cwd(), env});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({code, stderr});
		});
	});
	const seconds = (Date.now() - started) / 1000;
	t.diagnostic(`exit ${run.code} after ${seconds.toFixed(1)} s, ${requests} requests`);
	assert.equal(run.code, 5, run.stderr);
	assert.ok(seconds < 60, `${seconds} s`);
	assert.ok(requests >= 1);
	assert.match(run.stderr, /too slowly/);
});
