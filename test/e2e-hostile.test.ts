import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {after, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {normalizeId} from '../source/wire/ids.js';
import {shellQuote, startTmux, tmuxSkip, type TmuxSession} from './helpers/tmux.js';
import {cliCommand} from './helpers/built-cli.js';

/**
 * Issue 4's "done when": the dashboard in a real terminal (tmux, with clipboard writes and title
 * changes allowed, so a leak would show) over a simulator whose agents and titles carry escape
 * sequences: OSC 52 clipboard writes, OSC 0/2 titles, C1 controls, DCS and cursor queries, screen
 * clears. After reading the list, a timeline and an event's details, the pane's title is still
 * the shell's and tmux holds no paste buffer. A control run first proves both would change.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxSkip;
let sim: Simulator | null = null;
let tmux: TmuxSession | null = null;
after(async () => {
	tmux?.kill();
	await sim?.close();
});

/** How the screen shows a payload it escaped: ␛ for ESC, ⟨U+202E⟩, ^[ or ^G. */
const escaped = /␛|⟨U\+202E⟩|\^\[|\^G/;

const tmuxQuery = (session: TmuxSession, ...args: string[]) => execFileSync('tmux', ['-L', session.socket, ...args], {encoding: 'utf8'}).trim();

test('hostile events leave the window title and the clipboard buffer untouched (80x24)', {skip, timeout: 90_000}, async () => {
	sim = await startSimulator({port: 0, seed: 11, tickMs: 150, conversations: 24});
	sim.faults.hostileText(true);
	const control = `printf '\\033]2;SHELL-TITLE\\033\\\\'; printf '\\033]52;c;Y29udHJvbA==\\007'; printf 'CONTROL-DONE\\n'; sleep 2`;
	const app = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`, cliCommand(), `--base-url ${shellQuote(sim.baseUrl)}`].join(' ');
	tmux = startTmux({columns: 80, rows: 24, command: `sh -c ${shellQuote(`sleep 0.5; ${control}; ${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	for (const option of [['set-clipboard', 'on'], ['allow-rename', 'on'], ['set-titles', 'on']]) tmuxQuery(tmux, 'set-option', '-g', ...option);

	// The control: raw sequences from the shell do reach tmux here.
	await tmux.waitFor((screen) => screen.includes('CONTROL-DONE'), 'the control sequences');
	assert.equal(tmuxQuery(tmux, 'display-message', '-p', '-t', 'app', '#{pane_title}'), 'SHELL-TITLE', 'a title change is visible in this tmux');
	assert.match(tmuxQuery(tmux, 'list-buffers', '-F', '#{buffer_sample}'), /control/, 'an OSC 52 write becomes a buffer in this tmux');
	tmuxQuery(tmux, 'delete-buffer');
	assert.equal(tmuxQuery(tmux, 'list-buffers'), '');

	// The dashboard over hostile titles and events.
	// The hostile titles drawn, escaped, before anything is checked.
	await tmux.waitFor((screen) => screen.includes('Conversations (24)') && escaped.test(screen), 'the list with its hostile titles, escaped', 20_000);
	// A conversation whose agent never ends (the long-runner scenario), found by its id: the
	// third row, opened blind, was whichever conversation the attention sort had put there, and
	// once it was one that went stuck after 20 events: no live event came, and the test waited.
	const runner = sim.world.conversationList().find((entry) => entry.scenario === 'long-runner' && sim?.world.findSandbox(entry.sandboxId)?.status === 'RUNNING');
	assert.ok(runner, 'the simulator has a running long-runner conversation');
	tmux.send('/');
	await tmux.waitFor((screen) => /\d+ of \d+/.test(screen), 'the filter line');
	tmux.send(normalizeId(runner.id).slice(0, 12), {literal: true});
	await tmux.waitFor((screen) => /\b1 of 24\b/.test(screen), 'the list down to that conversation');
	tmux.send('Enter');
	await tmux.waitFor((screen) => screen.includes('esc clears'), 'the filter kept');
	tmux.send('Enter');
	const opened = await tmux.waitFor((screen) => screen.includes('[3 Timeline') && /[\d,]+ events/.test(screen), 'a timeline');
	// Live events stream in (every third of them hostile): wait until a few more are drawn.
	const count = (screen: string) => Number(/([\d,]+) events/.exec(screen)?.[1]?.replaceAll(',', '') ?? 0);
	const first = count(opened);
	await tmux.waitFor((screen) => count(screen) >= first + 6, `six live events after the first ${first}`, 30_000);
	tmux.send('Enter');
	await tmux.waitFor((screen) => screen.includes('esc back'), 'an event in full');
	const details = tmux.capture();
	tmux.send('Escape');
	tmux.send('1');
	const list = await tmux.waitFor((text) => text.includes('[1 Conversations'), 'back on the list');
	// The titles carry the payloads: they are on screen, escaped (␛ for ESC, ⟨U+202E⟩, ^G …).
	assert.match(list + details, escaped, `the payloads are shown escaped:\n${list}`);

	assert.equal(tmuxQuery(tmux, 'display-message', '-p', '-t', 'app', '#{pane_title}'), 'SHELL-TITLE', 'no title change got through');
	assert.equal(tmuxQuery(tmux, 'list-buffers'), '', 'no clipboard write got through');
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit');
});
