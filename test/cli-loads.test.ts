import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startSimulator} from '../source/simulator/server.js';
import {cliCommand, runCli} from './helpers/built-cli.js';
import {dashboardLauncher, type LaunchExtras, timelineLoaded, tmuxSkip} from './helpers/e2e-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {shellQuote, startTmux} from './helpers/tmux.js';

/**
 * What the built CLI loads, by Node's own modules (start-up is mostly loading code): undici's
 * HTTP/2 half (node:http2, node:tls) waits for an HTTP/2 connection, and the WebSocket library
 * (ws: node:https, node:zlib) for the dashboard's first frame, so neither delays it. Each absence
 * is paired with the module that shows the work was done (node:http for the listing, ws's for
 * the stream of an opened conversation). Nor does the first frame make an Intl object (the first
 * sets up ICU, 20-40 ms): the grapheme segmenters are made right after it.
 */

const reporter = fileURLToPath(new URL('helpers/report-loaded-modules.mjs', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'agent-tui-loads-'));
const reportTo = join(home, 'modules');
after(() => rmSync(home, {recursive: true, force: true}));
const readList = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as string[];

describe('what the built CLI loads', {timeout: 120_000}, () => {
	test('a headless listing over http:// loads node:http, not undici’s HTTP/2 half', async (t) => {
		const simulator = await startSimulator({port: 0, seed: 3, tickMs: 0, conversations: 12});
		t.after(() => simulator.close());
		const run = await runCli(['conversations', '--json', '--base-url', simulator.baseUrl], {
			home,
			env: {OPENHANDS_API_KEY: simulator.apiKey, NODE_OPTIONS: `--import=${reporter}`, AGENT_TUI_REPORT_MODULES: `${reportTo}-listing`},
		});
		assert.equal(run.code, 0, run.stderr);
		assert.equal((JSON.parse(run.stdout) as unknown[]).length, 12);
		const loaded = readList(`${reportTo}-listing.exit`);
		assert.ok(loaded.includes('http'), 'the request went through node:http');
		for (const name of ['http2', 'tls', 'https', 'zlib']) assert.ok(!loaded.includes(name), `node:${name} loaded: ${loaded.join(' ')}`);
	});

	const launch = dashboardLauncher({seed: 7, tickMs: 150, conversations: 30});
	/** Launches the dashboard reporting its modules to `report`, waits for the list, and checks what its first frame had loaded. */
	async function launchAndCheckFirstFrame(report: string, extras: Pick<LaunchExtras, 'simulator'>, listDescription: string) {
		const {tmux} = await launch(80, 24, {env: {NODE_OPTIONS: `--import=${reporter}`, AGENT_TUI_REPORT_MODULES: report}, ...extras});
		await tmux.waitFor((text) => /Conversations \(\d+\)/.test(text) && text.includes('need you'), listDescription, 30_000);
		await eventually(() => existsSync(`${report}.first-frame`), 'the report at the first frame', {timeoutMs: 10_000});
		const first = readList(`${report}.first-frame`);
		assert.ok(first.includes('http') && first.includes('tty'), `the list's own modules, its request out: ${first.join(' ')}`);
		for (const name of ['http2', 'tls', 'https', 'zlib']) assert.ok(!first.includes(name), `node:${name} loaded by the first frame: ${first.join(' ')}`);
		assert.deepEqual(first.filter((name) => name.startsWith('Intl.')), [], 'no Intl object before the first frame');
		return tmux;
	}

	test('the dashboard draws its first frame without ws, HTTP/2 or an Intl object, and loads ws to follow a conversation', {skip: tmuxSkip}, async () => {
		const report = `${reportTo}-dashboard`;
		const tmux = await launchAndCheckFirstFrame(report, {}, 'the list');
		// Open a running conversation: its stream comes over ws.
		tmux.send('\r');
		await tmux.waitFor((text) => timelineLoaded(text) && /\blive\b/.test(text), 'the timeline following live', 30_000);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
		const atExit = readList(`${report}.exit`);
		assert.ok(atExit.includes('https') && atExit.includes('zlib'), `ws and the modules it brings, loaded to stream: ${atExit.join(' ')}`);
		assert.ok(atExit.includes('Intl.Segmenter'), `the grapheme segmenters, made after the first frame: ${atExit.join(' ')}`);
	});

	test('the demo draws its first frame without an Intl object: its simulator answers the first list in the same process', {skip: tmuxSkip}, async (t) => {
		// The embedded simulator builds every running agent for the first list; a locale method
		// there (the long runner's row counts) made the process's first Intl object before the frame.
		const report = `${reportTo}-demo`;
		const app = ['env -u CI -u OPENHANDS_BASE_URL -u OPENHANDS_API_KEY', `XDG_CONFIG_HOME=${shellQuote(join(home, 'demo-config'))}`, 'NODE_ENV=production', `NODE_OPTIONS=${shellQuote(`--import=${reporter}`)}`, `AGENT_TUI_REPORT_MODULES=${shellQuote(report)}`, cliCommand(), '--demo'].join(' ');
		const tmux = startTmux({columns: 80, rows: 24, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`});
		t.after(() => tmux.kill());
		await tmux.waitFor((text) => /Conversations \(\d+\)/.test(text) && text.includes('DEMO'), 'the demo list', 30_000);
		await eventually(() => existsSync(`${report}.first-frame`), 'the report at the first frame', {timeoutMs: 10_000});
		const first = readList(`${report}.first-frame`);
		assert.ok(first.includes('http'), `the list's request out: ${first.join(' ')}`);
		assert.deepEqual(first.filter((name) => name.startsWith('Intl.')), [], 'no Intl object before the first frame');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the demo exited');
		assert.ok(readList(`${report}.exit`).includes('Intl.Segmenter'), 'the segmenters, made after the first frame');
	});

	test('with the list slower than the dashboard waits for it, the first frame (the list loading) still comes before ws and the segmenters', {skip: tmuxSkip}, async () => {
		// A busy machine: the list answers after the dashboard has stopped waiting (400 ms) and drawn
		// its first frame without it; what the dashboard loads after its first frame then comes
		// before the list. The first frame is the one to judge, not the first with the list.
		const report = `${reportTo}-slow`;
		const tmux = await launchAndCheckFirstFrame(report, {simulator: (simulator) => simulator.faults.setLatency(1500)}, 'the list, late');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
		const atExit = readList(`${report}.exit`);
		assert.ok(atExit.includes('https') && atExit.includes('Intl.Segmenter'), `loaded after the first frame, before the exit: ${atExit.join(' ')}`);
	});
});
