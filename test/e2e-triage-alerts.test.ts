import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {runCli} from './helpers/built-cli.js';
import {dashboardLauncher, tmuxSkip} from './helpers/e2e-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {startTmux, type TmuxSession} from './helpers/tmux.js';
import type {Simulator} from '../source/simulator/server.js';

/**
 * Alerts that reach you, in real terminals: the dashboard runs in a tmux pane (the inner tmux);
 * a second tmux (the outer one, standing for the terminal the person sees) has a pane attached
 * to it as its client, and records every byte that pane receives. A conversation starts waiting
 * for approval; the alert the dashboard writes is wrapped for tmux's passthrough, the inner tmux
 * unwraps it for its client when `allow-passthrough` is on, and the outer pane receives a bare
 * OSC 9 naming the command it waits on. `--alert-command` gets the same alert as JSON. With
 * passthrough off, nothing gets out, and the dashboard says the setting, once.
 */

const ESC = '\u001B';

// No ticking: the new conversation moves only when the test steps it. Its search walk every
// second finds the new conversation quickly.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 20, startTaskPhaseMs: 20, sandboxTransitionMs: 50});

type Run = {inner: TmuxSession; outer: TmuxSession; sim: Simulator; dir: string; home: string};

async function setUp(passthrough: boolean, t: {after(fn: () => void): void}): Promise<Run> {
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-alerts-'));
	const home = join(dir, 'home');
	// The dashboard may still be running an alert command that writes here (the panes end after this
	// hook): rmSync retries a folder that gained a file while it was being emptied (ENOTEMPTY).
	t.after(() => (process.env.KEEP_ALERT_DIR ? undefined : rmSync(dir, {recursive: true, force: true, maxRetries: 5})));
	const command = `cat > ${join(dir, 'alert-$$.json')}`;
	const {tmux: inner, simulator: sim} = await launch(100, 30, {
		args: ['--alerts', '--alert-protocol', 'osc9', '--alert-command', command],
		env: {AGENT_TUI_POLL: 'searchMs=1000,refreshMs=500', XDG_CONFIG_HOME: join(home, 'xdg'), HOME: home},
	});
	execFileSync('tmux', ['-L', inner.socket, 'set-option', '-g', 'allow-passthrough', passthrough ? 'on' : 'off']);
	inner.pipe(join(dir, 'inner.raw'));
	// The outer terminal: a pane whose program is a client of the inner tmux.
	const outer = startTmux({columns: 100, rows: 30, command: `env -u TMUX tmux -L ${inner.socket} attach -t ${inner.target}`});
	t.after(() => outer.kill());
	outer.pipe(join(dir, 'outer.raw'));
	await inner.waitFor((text) => text.includes('Conversations (') && /need you/.test(text), 'the dashboard');
	await outer.waitFor((text) => text.includes('Conversations ('), 'the dashboard through the outer terminal');
	return {inner, outer, sim, dir, home};
}

/** Starts a conversation that will wait for approval of `rm -rf build/ && git push --force …`, and steps it there. */
async function startWaitingConversation(run: Run): Promise<string> {
	const started = await runCli(['start', '--message', 'Rebuild the release scenario:confirmation', '--base-url', run.sim.baseUrl], {home: run.home, env: {OPENHANDS_API_KEY: run.sim.apiKey}});
	assert.equal(started.code, 0, started.stderr);
	const id = started.stdout.trim().split('\n').at(-1)!.replaceAll('-', '');
	const conversation = run.sim.world.findConversation(id);
	assert.ok(conversation, `the new conversation ${id}`);
	for (let step = 0; step < 20 && conversation.executionStatus !== 'waiting_for_confirmation'; step++) run.sim.step(1);
	assert.equal(conversation.executionStatus, 'waiting_for_confirmation');
	return id;
}

const raw = (run: Run, name: string) => {
	const path = join(run.dir, name);
	return existsSync(path) ? readFileSync(path, 'latin1') : '';
};

describe('alerts through tmux', {skip: tmuxSkip, concurrency: 1}, () => {
	test('passthrough on: the outer terminal receives an OSC 9 that names what waits; --alert-command gets the alert as JSON', {timeout: 90_000}, async (t) => {
		const run = await setUp(true, t);
		const id = await startWaitingConversation(run);
		const osc = `${ESC}]9;agent-tui: approve: $ rm -rf build/ && git push --force`;
		const outerBytes = await eventually(() => raw(run, 'outer.raw'), 'the notification at the outer terminal', {
			until: (bytes) => bytes.includes(osc),
			timeoutMs: 30_000,
			pollMs: 100,
			detail: () => `inner: ${JSON.stringify(raw(run, 'inner.raw').slice(-600))}\nscreen:\n${run.inner.capture()}`,
		});
		assert.ok(outerBytes.includes('· Rebuild the release'), 'then whose it is');
		assert.ok(!outerBytes.includes('Ptmux;'), 'the outer terminal gets it unwrapped');
		// What the dashboard itself wrote: the DCS passthrough, every ESC inside doubled.
		assert.ok(raw(run, 'inner.raw').includes(`${ESC}Ptmux;${ESC}${ESC}]9;agent-tui: approve: $ rm -rf build/`), 'the dashboard wraps it for tmux');
		// The command ran with the alert on its stdin.
		// The shell creates the file before cat has written to it: wait for the whole line.
		const written = () => {
			const file = readdirSync(run.dir).find((name) => name.startsWith('alert-'));
			return file ? readFileSync(join(run.dir, file), 'utf8') : '';
		};
		const text = await eventually(written, 'the alert command', {until: (content) => content.endsWith('\n'), timeoutMs: 10_000});
		const alert = JSON.parse(text) as Record<string, unknown>;
		assert.equal(alert.conversation_id, id);
		assert.match(String(alert.reason), /^approve: \$ rm -rf build\/ && git push --force/);
		assert.equal(alert.kind, 'waiting_for_confirmation');
		assert.match(String(alert.title), /Rebuild the release/);
		// Passthrough works: no advice about it.
		assert.doesNotMatch(run.inner.capture(), /allow-passthrough/);
		run.inner.send('q');
		await run.inner.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('passthrough off: tmux drops the notification, and the dashboard says the setting it needs', {timeout: 90_000}, async (t) => {
		const run = await setUp(false, t);
		await startWaitingConversation(run);
		// The alert is written (the wrapped notification is in what the dashboard wrote) …
		await eventually(() => raw(run, 'inner.raw'), 'the alert written', {until: (bytes) => bytes.includes(`${ESC}Ptmux;${ESC}${ESC}]9;agent-tui: approve:`), timeoutMs: 30_000, pollMs: 100});
		// … the dashboard says what tmux needs …
		await run.inner.waitFor((text) => text.includes('allow-passthrough on'), 'the advice on the notice line', 15_000);
		// … and nothing reached the outer terminal (the bell may; the notification may not).
		assert.ok(!raw(run, 'outer.raw').includes(`${ESC}]9;agent-tui`), 'tmux dropped it');
		run.inner.send('q');
		await run.inner.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
