import assert from 'node:assert/strict';
import {type ChildProcess, spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {after, before, describe, test} from 'node:test';
import {subAgentTitles} from '../source/simulator/seed-fleet.js';
import {cliArgs, cliCommand, runCli} from './helpers/built-cli.js';
import {assertFits, screenLines, selectedRow, tmuxSkip} from './helpers/e2e-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {shellQuote, startTmux, type TmuxSession} from './helpers/tmux.js';

/**
 * The 2026 fleet as a new user meets it: `agent-tui simulator` (the built CLI, in a process of its
 * own) and the dashboard against it in a real terminal (tmux). A sub-agent appears under its
 * parent, and the one waiting for approval raises the parent (named in its preview) until it is
 * approved; the ERROR sandbox says why (ImagePullBackOff) in the list, the Sandboxes pane and
 * `agent-tui sandboxes`; `conversations --json` carries the parent ids.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'agent-tui-e2e-fleet-'));
const sessions: TmuxSession[] = [];
let simulator: ChildProcess | undefined;
let baseUrl = '';

before(async () => {
	if (tmuxSkip) return;
	simulator = spawn(process.execPath, [...cliArgs(), 'simulator', '--port', '0', '--seed', '3'], {stdio: ['ignore', 'pipe', 'pipe']});
	let banner = '';
	simulator.stdout!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
	await eventually(() => /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? null, 'the simulator banner', {until: (url) => url !== null, timeoutMs: 20_000});
	baseUrl = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
});

after(async () => {
	for (const session of sessions) session.kill();
	simulator?.kill('SIGTERM');
	rmSync(home, {recursive: true, force: true});
});

function dashboard(columns: number, rows: number): TmuxSession {
	const app = ['env -u CI', 'OPENHANDS_API_KEY=demo-key', `HOME=${shellQuote(home)}`, 'NODE_ENV=production', cliCommand(), `--base-url ${shellQuote(baseUrl)}`].join(' ');
	const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	sessions.push(tmux);
	return tmux;
}

const lines = screenLines;
const lineWith = (screen: string, text: string) => lines(screen).find((line) => line.includes(text)) ?? '';
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';

describe('the fleet end to end: agent-tui simulator, the dashboard in tmux, the headless commands', {skip: tmuxSkip}, () => {
	test('120x32: sub-agents under their parent; the waiting one raises it until a approves it', {timeout: 90_000}, async () => {
		const tmux = dashboard(120, 32);
		// The parent is the live run the sub-agents name; its title is cut to the column.
		const raised = /! (sub: |↓)approve\?/;
		let screen = await tmux.waitFor((text) => raised.test(text) && text.includes('├ Sub-agent'), 'the raised parent and its waiting sub-agent', 40_000);
		assertFits(screen, 120);
		const parent = lines(screen).findIndex((line) => raised.test(line));
		assert.match(lines(screen)[parent]!, /▾(3| 3 sub-agents ·) /, 'the parent: its sub-agents shown, with their count');
		assert.match(lines(screen)[parent + 1]!, /◆ waiting .*approve\? .*├ Sub-agent/, 'the waiting one first under it');
		assert.ok(lines(screen).slice(parent + 2, parent + 4).some((line) => /[├└] /.test(line)), 'the other sub-agents under it too');
		// n goes to the sub-agent itself (the parent is skipped while it is shown); its preview says whose it is.
		for (let tries = 0; tries < 12 && !/◆ waiting .*├ Sub-agent/.test(selected(tmux.capture())); tries++) {
			const before = selectedRow(tmux.capture());
			tmux.send('n');
			await tmux.waitFor((text) => selectedRow(text) !== before, 'n moved');
		}
		screen = await tmux.waitFor((text) => /◆ waiting .*├ Sub-agent/.test(selected(text)), 'n on the waiting sub-agent');
		assert.match(screen, /Sub-agent \(task\): clean the build output and push/, 'its whole title in the preview');
		assert.match(screen, /sub-agent of "/);
		// Up to its parent: the preview names the sub-agent that needs you.
		tmux.send('k');
		screen = await tmux.waitFor((text) => raised.test(selected(text)), 'the parent selected');
		assert.match(screen, /a sub-agent needs you: waiting for you to approve an action for \d+[smhd] · "Sub-agent \(task\): clean the build/);
		// space folds its sub-agents (the count stays), space again shows them.
		tmux.send('Space');
		screen = await tmux.waitFor((text) => /▸(3| 3 sub-agents)/.test(selected(text)) && !text.includes('├ Sub-agent'), 'folded');
		tmux.send('Space');
		await tmux.waitFor((text) => /▾(3| 3 sub-agents)/.test(selected(text)) && text.includes('├ Sub-agent'), 'shown again');
		// Approve the sub-agent: the parent is no longer raised.
		tmux.send('j');
		await tmux.waitFor((text) => /◆ waiting .*├ Sub-agent/.test(selected(text)), 'the sub-agent selected');
		tmux.send('a');
		await tmux.waitFor((text) => /Approve .*pending action.*\[y\/n\]/.test(text), 'the approval question');
		tmux.send('y');
		await tmux.waitFor((text) => text.includes('Approved '), 'the approval sent', 20_000);
		screen = await tmux.waitFor((text) => !raised.test(text) && /▾(3| 3 sub-agents)/.test(text), 'the parent calm again', 30_000);
		assert.equal(lines(screen).filter((line) => /[├└] (Sub-agent|Plan)/.test(line)).length, 3, 'its sub-agents still listed under it');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit', 20_000);
	});

	test('120x32: the ERROR sandbox says why, in the list, the preview and the Sandboxes pane', {timeout: 90_000}, async () => {
		const tmux = dashboard(120, 32);
		await tmux.waitFor((text) => text.includes('Conversations') && text.includes('› '), 'the list', 40_000);
		tmux.send('/');
		await tmux.waitFor((text) => text.includes('enter done'), 'the filter line');
		tmux.send('sandbox:error', {literal: true});
		await tmux.waitFor((text) => /\b1 of \d+/.test(text), 'the filter applied');
		tmux.send('Enter');
		let screen = await tmux.waitFor((text) => /› .*ImagePullBackOff/.test(text), 'the ERROR row with its reason, selected', 20_000);
		assert.match(lineWith(screen, '! ImagePullBackOff'), /✗ error +! ImagePullBackOff · /);
		assert.match(screen, /its sandbox failed \(ERROR: ImagePullBackOff\)/, 'the preview says why, whole');
		tmux.send('Escape');
		tmux.send('2');
		screen = await tmux.waitFor((text) => text.includes('USED BY') && text.includes('ImagePullBackOff'), 'the Sandboxes pane', 20_000);
		assert.match(lineWith(screen, 'ImagePullBackOff'), /✗ error .*ImagePullBackOff · /);
		assert.match(screen, /\? unknown .*runtime provider unavailable/, 'UNKNOWN is its own word, with its reason');
		assertFits(screen, 120);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit', 20_000);
	});

	test('agent-tui sandboxes and conversations --json against the same simulator', {timeout: 60_000}, async () => {
		const env = {OPENHANDS_API_KEY: 'demo-key'};
		const [sandboxes, conversations] = await Promise.all([
			runCli(['sandboxes', '--base-url', baseUrl], {home, env, timeoutMs: 30_000}),
			runCli(['conversations', '--json', '--base-url', baseUrl], {home, env, timeoutMs: 30_000}),
		]);
		assert.equal(sandboxes.code, 0, sandboxes.stderr);
		assert.match(sandboxes.stdout, /✗ error +ImagePullBackOff/);
		assert.equal(conversations.code, 0, conversations.stderr);
		const rows = JSON.parse(conversations.stdout) as Array<{id: string; title: string; parent_conversation_id: string | null}>;
		const children = rows.filter((row) => row.parent_conversation_id);
		assert.equal(children.length, 3, 'the three sub-agents, each naming its parent');
		assert.ok(children.every((child) => rows.some((row) => row.id === child.parent_conversation_id)), 'their parent is listed too');
		assert.ok(children.some((child) => child.title === subAgentTitles.waiting));
	});
});
