import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {after, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {hostileFilePath} from '../source/simulator/git-workspace.js';
import {cliCommand} from './helpers/built-cli.js';
import {timelineLoaded, tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {shellQuote, startTmux, type TmuxSession} from './helpers/tmux.js';

/**
 * The Changes view over SSH, in a real terminal against the built CLI: `y` puts the patch in
 * tmux's buffer (set-clipboard on), `v` opens it in a real `less` with the terminal handed over,
 * and `q` there brings the dashboard back whole. On the timeline, `v` shows the selected event's
 * JSON the same way. Escape sequences in the agent's files reach the pager as marks, never raw.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

test('100x30: y copies the patch, v pages it in less, q comes back to the Changes view; v on the timeline pages the event', {skip, timeout: 120_000}, async () => {
	const sim: Simulator = await startSimulator({port: 0, seed: 1, tickMs: 0});
	cleanups.push(() => sim.close());
	const app = ['env -u CI', 'PAGER=less', 'LESS=', `OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`, cliCommand(), `--base-url ${shellQuote(sim.baseUrl)}`].join(' ');
	const tmux: TmuxSession = startTmux({columns: 100, rows: 30, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	cleanups.push(() => tmux.kill());
	const run = (...args: string[]) => execFileSync('tmux', ['-L', tmux.socket, ...args], {encoding: 'utf8'});
	run('set-option', '-s', 'set-clipboard', 'on');
	await tmux.waitFor((screen) => screen.includes('Conversations (') && screen.includes('› '), 'the list', 40_000);
	tmux.send('d');
	await tmux.waitFor((text) => text.includes('Changes ·') && text.includes(hostileFilePath), 'the changed files', 20_000);

	tmux.send('y');
	await tmux.waitFor((text) => /Copied the patch of \d+ files/.test(text), 'the patch copied');
	const patch = run('show-buffer');
	assert.match(patch, /^diff --git a\//m, 'a git patch in tmux\'s buffer');
	assert.ok(patch.includes(hostileFilePath), 'every file of the list');

	tmux.send('v');
	const paged = await tmux.waitFor((text) => text.includes('diff --git') && !text.includes('Changes ·'), 'the patch in less');
	assert.ok(!paged.includes('pwned\u0007'), 'no raw escape reached the pager');
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('Changes ·') && text.includes(hostileFilePath) && text.includes('Closed the pager'), 'the Changes view back, whole');

	tmux.send('Escape');
	await tmux.waitFor((text) => !text.includes('Changes ·'), 'the list');
	tmux.send('Enter');
	await tmux.waitFor((text) => timelineLoaded(text) && text.split('\n').some((row) => row.startsWith('› ')), 'the timeline with its newest event selected', 20_000);
	tmux.send('v');
	await tmux.waitFor((text) => /"kind": "\w+"/.test(text) && /"timestamp": /.test(text), 'the event\'s JSON in less');
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('Closed the pager (the event\'s JSON)'), 'the timeline back');
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit', 20_000);
});
