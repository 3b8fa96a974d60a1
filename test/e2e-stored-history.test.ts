import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {Simulator} from '../source/simulator/server.js';
import type {TmuxSession} from './helpers/tmux.js';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Stored history in a real terminal (tmux) against a simulator in this process: a conversation
 * whose sandbox is PAUSED opens at once on its stored events, marked as such in the timeline's
 * header; resuming its sandbox from there (r, y) turns the same timeline live, its events kept.
 */

const skip = tmuxSkip;

const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 150});

const lines = screenLines;
const headerOf = (screen: string) => lines(screen).find((line) => line.includes('stored history') || / live · /.test(line)) ?? '';

const fits = assertFits;

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
	// The sandbox list loads after the conversations: r pressed before it has waits for it, and asks once.
	tmux.send('r');
	await tmux.waitFor((text) => /[Rr]esume .*\[y\/n\]/.test(text), 'the resume question', 20_000);
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
