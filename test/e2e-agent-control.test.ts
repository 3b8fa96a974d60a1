import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {Simulator} from '../source/simulator/server.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {assertFits, dashboardLauncher, screenLines, selectedRow, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Stop one agent and let it continue, in a real terminal (tmux) at 80x24 and 160x48, against a
 * simulator in this process: `i` from the list asks y/n naming the conversation, the server
 * pauses that agent only (its sandbox keeps running), `c` lets it go on.
 */

const skip = tmuxSkip;

// No ticking: statuses change only through what the test does.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30});

const lines = screenLines;
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';
/** The selected row's agent column (the first status) says running; the sandbox column may too. */
const agentRunning = (screen: string) => /^› \S+ running /.test(selected(screen));
const agentPaused = (screen: string) => /^› \S+ paused /.test(selected(screen));

const fits = assertFits;

function running(simulator: Simulator): SimConversation[] {
	return simulator.world.liveConversations().filter((conversation) => conversation.executionStatus === 'running');
}

async function interruptAndContinue(columns: number, rows: number): Promise<void> {
	const {tmux, simulator} = await launch(columns, rows);
	await tmux.waitFor((text) => text.includes('running'), 'the list with running conversations', 30_000);
	// Select a conversation whose agent is running.
	for (let i = 0; i < 30 && !agentRunning(tmux.capture()); i++) {
		const before = selectedRow(tmux.capture());
		tmux.send('j');
		await tmux.waitFor((text) => selectedRow(text) !== before, 'the selection moved');
	}
	assert.ok(agentRunning(tmux.capture()), selected(tmux.capture()));
	const wasRunning = new Set(running(simulator).map((conversation) => conversation.id));
	const sandboxesBefore = simulator.world.sandboxList().map((sandbox) => `${sandbox.id}:${sandbox.status}`);

	tmux.send('i');
	let screen = await tmux.waitFor((text) => /Stop the agent of ".+"\? \[y\/n\]/.test(text), 'the question naming the conversation');
	fits(screen, columns);
	tmux.send('y');
	screen = await tmux.waitFor((text) => text.includes('Stopped the agent of'), 'the interrupt sent', 20_000);
	fits(screen, columns);
	const stopped = [...wasRunning].map((id) => simulator.world.findConversation(id)!).filter((conversation) => conversation.executionStatus === 'paused');
	assert.equal(stopped.length, 1, `exactly one agent stopped; screen:\n${screen}`);
	assert.deepEqual(
		simulator.world.sandboxList().map((sandbox) => `${sandbox.id}:${sandbox.status}`),
		sandboxesBefore,
		'no sandbox changed',
	);
	assert.equal(running(simulator).length, wasRunning.size - 1, 'the other agents run on');
	await tmux.waitFor(agentPaused, 'the row shows its agent paused', 20_000);

	tmux.send('c');
	await tmux.waitFor((text) => /Let the agent of ".+" continue\? \[y\/n\]/.test(text), 'the continue question');
	tmux.send('y');
	screen = await tmux.waitFor((text) => text.includes('is running again'), 'the run sent', 20_000);
	fits(screen, columns);
	assert.equal(stopped[0]!.executionStatus, 'running');
	await tmux.waitFor(agentRunning, 'the row shows its agent running', 20_000);
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
}

describe('stop and continue one agent in tmux', {skip, concurrency: 2}, () => {
	test('80x24: i stops the selected agent only, c lets it continue', {timeout: 90_000}, () => interruptAndContinue(80, 24));
	test('160x48: i stops the selected agent only, c lets it continue', {timeout: 90_000}, () => interruptAndContinue(160, 48));
});
