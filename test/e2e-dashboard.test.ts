import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxSkip, type TmuxSession} from './helpers/tmux.js';
import {cliCommand} from './helpers/built-cli.js';
import {timelineLoaded} from './helpers/e2e-dashboard.js';

/**
 * The dashboard in a real terminal (tmux), against a simulator in this process, at 80x24 and
 * 160x48: find a stuck conversation with the filter, open it, filter its timeline to actions,
 * read one with its observation, pause and resume its sandbox, start a conversation and see it
 * become READY, quit, and find the shell's screen back.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxSkip;

const simulators: Simulator[] = [];
const sessions: TmuxSession[] = [];

after(async () => {
	for (const session of sessions) session.kill();
	await Promise.all(simulators.map((simulator) => simulator.close()));
});

/** One simulator per flow: the two sizes run at once and must not pause each other's sandbox. */
async function launch(columns: number, rows: number): Promise<TmuxSession> {
	const simulator = await startSimulator({port: 0, seed: 7, tickMs: 400, conversations: 30, startTaskPhaseMs: 150, sandboxTransitionMs: 150});
	simulators.push(simulator);
	// The shell prints a marker first: after quitting, it must be on screen again (alternate screen left).
	const app = [
		'env -u CI',
		`OPENHANDS_API_KEY=${shellQuote(simulator.apiKey)}`,
		'NODE_ENV=production',
		cliCommand(),
		`--base-url ${shellQuote(simulator.baseUrl)}`,
	].join(' ');
	const command = `printf 'SHELL-BEFORE-${columns}\\n'; ${app}; printf 'EXIT=%s\\n' $?; sleep 60`;
	const session = startTmux({columns, rows, command: `sh -c ${shellQuote(command)}`, cwd: root});
	sessions.push(session);
	return session;
}

const lines = (screen: string) => screen.split('\n');
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';

async function flow(columns: number, rows: number): Promise<string[]> {
	const captures: string[] = [];
	const tmux = await launch(columns, rows);
	const fits = (screen: string) => {
		for (const line of lines(screen)) assert.ok(line.length <= columns, `line wider than ${columns}: ${line}`);
	};

	let screen = await tmux.waitFor((text) => text.includes('Conversations (') && /\d+ stuck/.test(text), 'conversations with a stuck one');
	fits(screen);
	assert.doesNotMatch(screen, /SHELL-BEFORE/, 'the dashboard is on the alternate screen');

	// Find the stuck conversation with the filter line.
	tmux.send('/');
	await tmux.waitFor((text) => /\d+ of \d+/.test(text), 'the filter line');
	tmux.send('status:stuck', {literal: true});
	screen = await tmux.waitFor((text) => /\b[1-9]\d* of \d+/.test(text) && /stuck/.test(selected(text)), 'a stuck row under the filter');
	tmux.send('Enter');
	await tmux.waitFor((text) => text.includes('esc clears'), 'the filter kept');
	// The start of the title identifies the row (at 80 columns the repository is in the preview);
	// the attention badge before it changes as the conversation does.
	const stuckTitle = /· (.{10})/.exec(selected(screen))?.[1] ?? 'no title on the selected row';
	captures.push(screen);

	// Open it: its timeline.
	tmux.send('Enter');
	screen = await tmux.waitFor(timelineLoaded, 'the timeline with its history');
	fits(screen);

	// Only actions, then one of them in full with its observation.
	tmux.send('/');
	await tmux.waitFor((text) => text.includes('kind:ActionEvent source:agent pytest') || text.includes('match'), 'the timeline filter line');
	tmux.send('kind:ActionEvent', {literal: true});
	// Wait for the text before Enter, as a person would: typed together they arrive as one chunk,
	// which the dispatcher rightly treats as a paste, not a key.
	await tmux.waitFor((text) => /\/ kind:ActionEvent/.test(text), 'the typed filter');
	tmux.send('Enter');
	screen = await tmux.waitFor((text) => /\/ kind:ActionEvent/.test(text) && /action/.test(text) && !text.includes('enter keep'), 'actions only');
	captures.push(screen);
	// Its newest calls are the invalid ones its loop ended on (answered by agent errors): the first
	// action, a test run, is one with an observation.
	tmux.send('g');
	await tmux.waitFor((text) => /\$ npm test/.test(selected(text)), 'the first action, a test run');
	tmux.send('Enter');
	await tmux.waitFor((text) => text.includes('ActionEvent ·') && text.includes('esc back'), 'the action details');
	// At 24 rows the observation sits below the thought and reasoning: jump to the end, as a reader would.
	tmux.send('G');
	screen = await tmux.waitFor((text) => /observation/i.test(text) && text.includes('esc back'), 'the action with its observation');
	captures.push(screen);
	tmux.send('Escape');
	await tmux.waitFor((text) => /\/ kind:ActionEvent/.test(text), 'back to the timeline');

	// Pause its sandbox (asks first), watch it pause, resume it.
	tmux.send('p');
	screen = await tmux.waitFor((text) => text.includes('Pause sandbox') && text.includes('[y/n]'), 'the pause question');
	captures.push(screen);
	tmux.send('y');
	// Back on the list, unfiltered: the selection is still that conversation, now paused.
	tmux.send('1');
	await tmux.waitFor((text) => text.includes('[1 Conversations'), 'the list');
	tmux.send('Escape');
	screen = await tmux.waitFor((text) => /paused/.test(selected(text)) && selected(text).includes(stuckTitle), 'its sandbox paused', 20_000);
	tmux.send('r');
	await tmux.waitFor((text) => text.includes('Resume sandbox') && text.includes('[y/n]'), 'the resume question');
	tmux.send('y');
	screen = await tmux.waitFor((text) => selected(text).includes(stuckTitle) && !/paused/.test(selected(text)), 'its sandbox resumed', 20_000);
	captures.push(screen);

	// Start a conversation and watch it become READY; it opens by itself.
	tmux.send('+');
	await tmux.waitFor((text) => text.includes('Start a conversation'), 'the start form');
	tmux.send(`Say hello from the ${columns}x${rows} end-to-end test`, {literal: true});
	await tmux.waitFor((text) => text.includes('end-to-end test'), 'the typed message');
	screen = await startAndWait(tmux);
	captures.push(screen);
	screen = await tmux.waitFor((text) => text.includes('[3 Timeline'), 'the new conversation opened', 20_000);
	fits(screen);

	// Quit: the shell's screen is back, the dashboard gone, exit 0.
	tmux.send('q');
	screen = await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	assert.match(screen, new RegExp(`SHELL-BEFORE-${columns}`));
	assert.doesNotMatch(screen, /Conversations \(/, 'nothing of the dashboard is left on the screen');
	return captures;
}

/** From the message field: message → repository → launch link → [+ add plugin] → [start], press it, wait for READY. */
async function startAndWait(tmux: TmuxSession): Promise<string> {
	for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Enter']) {
		tmux.send(key);
		await new Promise((resolve) => setTimeout(resolve, 150));
	}
	// The form shows READY for as long as the look-up of the new conversation takes, which can be
	// shorter than one capture; the notice line keeps saying it once the timeline is open.
	return tmux.waitFor((text) => text.includes('READY'), 'the start task READY', 20_000);
}

describe('end to end in tmux', {skip, concurrency: 2}, () => {
	test('80x24', {timeout: 80_000}, async () => {
		const captures = await flow(80, 24);
		console.log(`--- 80x24 captures ---\n${captures.join('\n----\n')}`);
	});
	test('160x48', {timeout: 80_000}, async () => {
		await flow(160, 48);
	});
});
