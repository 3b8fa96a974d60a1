import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxAvailable, type TmuxSession} from './helpers/tmux.js';
import {cliCommand} from './helpers/built-cli.js';

/**
 * Stored history in a real terminal (tmux) against a simulator in this process: a conversation
 * whose sandbox is PAUSED opens at once on its stored events, marked as such in the timeline's
 * header; resuming its sandbox from there (r, y) turns the same timeline live, its events kept.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxAvailable() ? false : 'tmux is not installed: the end-to-end tests need it (apt-get install tmux)';

const simulators: Simulator[] = [];
const sessions: TmuxSession[] = [];

after(async () => {
	for (const session of sessions) session.kill();
	await Promise.all(simulators.map((simulator) => simulator.close()));
});

async function launch(columns: number, rows: number): Promise<{tmux: TmuxSession; simulator: Simulator}> {
	const simulator = await startSimulator({port: 0, seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 150});
	simulators.push(simulator);
	const app = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(simulator.apiKey)}`, 'NODE_ENV=production', cliCommand(), `--base-url ${shellQuote(simulator.baseUrl)}`].join(' ');
	const command = `${app}; printf 'EXIT=%s\\n' $?; sleep 60`;
	const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(command)}`, cwd: root});
	sessions.push(tmux);
	return {tmux, simulator};
}

const lines = (screen: string) => screen.split('\n');
const headerOf = (screen: string) => lines(screen).find((line) => line.includes('stored history') || / live · /.test(line)) ?? '';

function fits(screen: string, columns: number) {
	for (const line of lines(screen)) assert.ok(line.length <= columns, `line wider than ${columns}: ${line}`);
}

/** Filters the list to paused sandboxes and opens the first one's timeline. */
async function openPaused(tmux: TmuxSession, simulator: Simulator, columns: number): Promise<{screen: string; key: string}> {
	await tmux.waitFor((text) => /paused/i.test(text), 'the conversation list');
	tmux.send('/');
	tmux.send('sandbox:paused', {literal: true});
	await tmux.waitFor((text) => text.includes('sandbox:paused'), 'the typed filter');
	tmux.send('Enter');
	// The filter line is closed (the list's own hints are back) and a paused conversation is selected.
	await tmux.waitFor((text) => text.includes('enter open') && lines(text).some((line) => line.startsWith('› ')), 'a paused conversation selected');
	tmux.send('Enter');
	const screen = await tmux.waitFor((text) => text.includes('stored history · sandbox PAUSED') && /\d\d:\d\d:\d\d /.test(text), 'the stored history, marked', 20_000);
	fits(screen, columns);
	// Which conversation: the one whose newest stored event is on screen.
	const paused = simulator.world.conversationList().filter((conversation) => simulator.world.findSandbox(String(conversation.sandboxId))?.status === 'PAUSED');
	const open = paused.find((conversation) => {
		const newest = simulator.world.events(conversation).at(-1);
		return newest !== undefined && screen.includes(newest.timestamp.slice(11, 19));
	});
	assert.ok(open, 'a paused conversation is open');
	return {screen, key: open.id};
}

async function resumeAndGoLive(tmux: TmuxSession, simulator: Simulator, key: string, columns: number): Promise<void> {
	const before = simulator.world.events(key).length;
	// The sandbox list loads after the conversations: r refuses until it has (and says so).
	await tmux.waitFor((text) => /Sandboxes \([1-9]\d*\)/.test(text), 'the sandbox list', 20_000);
	tmux.send('r');
	await tmux.waitFor((text) => {
		if (text.includes('not loaded yet')) tmux.send('r');
		return /[Rr]esume .*\[y\/n\]/.test(text);
	}, 'the resume question', 20_000, 500);
	tmux.send('y');
	const live = await tmux.waitFor((text) => / live · /.test(headerOf(text)) && !text.includes('stored history'), 'the same timeline, live', 30_000);
	fits(live, columns);
	// New events arrive on the screen as the agent runs on.
	simulator.step(4);
	assert.ok(simulator.world.events(key).length >= before);
	const newest = simulator.world.events(key).at(-1)!;
	await tmux.waitFor((text) => text.includes(newest.timestamp.slice(11, 19)), 'the newest event on screen', 20_000);
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
}

describe('stored history end to end in tmux', {skip, concurrency: 2}, () => {
	test('160x48: a PAUSED conversation opens on its stored history; r, y turns it live', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launch(160, 48);
		const {screen, key} = await openPaused(tmux, simulator, 160);
		assert.match(headerOf(screen), /stored history · sandbox PAUSED · r resume to go live/);
		assert.equal(String(simulator.world.findSandbox(String(simulator.world.findConversation(key)!.sandboxId))!.status), 'PAUSED', 'opening it resumed nothing');
		await resumeAndGoLive(tmux, simulator, key, 160);
	});

	test('80x24: the mark fits; r, y turns the same timeline live', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launch(80, 24);
		const {key} = await openPaused(tmux, simulator, 80);
		await resumeAndGoLive(tmux, simulator, key, 80);
	});
});
