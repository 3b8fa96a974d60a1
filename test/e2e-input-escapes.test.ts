import {after, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {cliCommand} from './helpers/built-cli.js';
import {filterLine, screenLines, selectedRow, tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {bracketedPaste, shellQuote, startTmux, type TmuxSession} from './helpers/tmux.js';

/**
 * Issue 23.1 as it was reported, in a real terminal against the built CLI's demo: a colour
 * escape typed on the list (`tmux send-keys -l $'\e[31m'`), and coloured terminal output pasted
 * (a real bracketed paste, tmux paste-buffer -p) into the filter and into the reject reason,
 * printed "agent-tui: Cannot read properties of undefined (reading 'startsWith')" and exited 1.
 * The dashboard must stay, keep answering keys, take the pasted words without their colour
 * codes, and exit 0 on q.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const sessions: TmuxSession[] = [];
const dirs: string[] = [];
after(() => {
	for (const session of sessions) session.kill();
	for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
});

const red = '\u001B[31m';
const reset = '\u001B[0m';
const selected = (screen: string) => screenLines(screen).find((line) => line.startsWith('›')) ?? '';

test('80x24 demo: ESC[31m on the list and coloured pastes into the filter and the reject reason leave the dashboard running', {skip, timeout: 90_000}, async () => {
	const config = mkdtempSync(join(tmpdir(), 'agent-tui-e2e-escapes-'));
	dirs.push(config);
	const app = ['env -u CI -u OPENHANDS_BASE_URL -u OPENHANDS_API_KEY', `XDG_CONFIG_HOME=${shellQuote(config)}`, cliCommand(), '--demo'].join(' ');
	const tmux = startTmux({columns: 80, rows: 24, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	sessions.push(tmux);
	let screen = await tmux.waitFor((text) => text.includes('Conversations (') && selected(text) !== '', 'the demo list', 30_000);
	const alive = (text: string) => !text.includes('EXIT=') && !text.includes('agent-tui:');

	// Typed on the list, each in a write of its own, as in the report.
	for (const sequence of [red, reset, '\u001B[1m', '\u001B[m']) tmux.send(sequence, {literal: true});
	const before = selectedRow(screen);
	tmux.send('j');
	screen = await tmux.waitFor((text) => !alive(text) || selectedRow(text) !== before, 'j moving the selection after the escapes');
	assert.ok(alive(screen), `the dashboard is still running:\n${screen}`);

	// Pasted into the filter: the words, not the codes.
	tmux.send('/');
	await tmux.waitFor((text) => / of \d+/.test(filterLine(text)), 'the filter line');
	bracketedPaste(tmux, `${red}error${reset}`);
	screen = await tmux.waitFor((text) => !alive(text) || /^\/ error/.test(filterLine(text)), 'the pasted words in the filter');
	assert.ok(alive(screen), `the dashboard is still running:\n${screen}`);
	assert.doesNotMatch(filterLine(screen), /\[31m|\[0m/);
	tmux.send('Escape');
	await tmux.waitFor((text) => filterLine(text) === '', 'the filter cleared');

	// Pasted into the reject reason of a conversation waiting for approval.
	tmux.send('g');
	screen = await tmux.waitFor((text) => screenLines(text).findIndex((line) => line.startsWith('›')) === screenLines(text).findIndex((line) => /^[›\s]\s[▸◆✗◌✓—]/.test(line)), 'the first row selected');
	for (let row = 0; row < 30 && !selected(screen).includes('◆ waiting'); row++) {
		const before = selectedRow(screen);
		tmux.send('j');
		screen = await tmux.waitFor((text) => selectedRow(text) !== before, 'the next row selected');
	}
	assert.match(selected(screen), /◆ waiting/, 'a conversation waiting for approval');
	tmux.send('x');
	await tmux.waitFor((text) => /Reject .*\[y\/n\]/.test(text), 'the reject question');
	tmux.send('y');
	await tmux.waitFor((text) => text.includes('reason (optional)'), 'the reason field');
	bracketedPaste(tmux, `${red}error${reset}: not on main`);
	screen = await tmux.waitFor((text) => !alive(text) || text.includes('error: not on main'), 'the pasted reason');
	assert.ok(alive(screen), `the dashboard is still running:\n${screen}`);
	assert.doesNotMatch(screen, /\[31m|\[0m/);
	tmux.send('Escape');
	await tmux.waitFor((text) => !text.includes('reason (optional)'), 'the reason field closed');

	tmux.send('q');
	screen = await tmux.waitFor((text) => text.includes('EXIT='), 'the exit');
	assert.match(screen, /EXIT=0/);
	assert.doesNotMatch(screen, /agent-tui:/, 'no crash line');
});
