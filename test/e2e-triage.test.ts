import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {TmuxSession} from './helpers/tmux.js';
import {assertFits, dashboardLauncher, screenLines, selectedRow, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Triage in a real terminal (tmux) against a simulator in this process: find the conversation
 * waiting for confirmation with `n`, see what it waits for, approve it (160x48) or reject it with
 * a reason and send it a message (80x24), then pause every running sandbox with the bulk action
 * and read the result per sandbox.
 */

const skip = tmuxSkip;

// No ticking: the waiting conversation waits until the test answers it.
// Shared sandboxes: two live conversations sit in the sandboxes of two others, so the bulk pause
// must name (and pause) each sandbox once.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 150, sharedSandboxes: true});

const lines = screenLines;
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';

const fits = assertFits;

/** `n` until the selected row is the one waiting for approval; then open its timeline with the pending actions. */
async function openWaiting(tmux: TmuxSession, columns: number): Promise<string> {
	await tmux.waitFor((text) => /1 waiting/.test(text), 'a conversation waiting for confirmation');
	// One n at a time: each waits for the cursor to leave its row. (It waited for any selection,
	// which was there before the key: several n went out at once, the cursor ran past the waiting
	// row, and the Enter after them opened another conversation.)
	for (let i = 0; i < 10 && !/approve\?/.test(selected(tmux.capture())); i++) {
		const before = selectedRow(tmux.capture());
		tmux.send('n');
		await tmux.waitFor((text) => selectedRow(text) !== before, 'n moved');
	}
	await tmux.waitFor((text) => /approve\?/.test(selected(text)), 'the waiting conversation selected');
	tmux.send('Enter');
	const screen = await tmux.waitFor((text) => text.includes('Waiting for you: ') && /HIGH|MEDIUM|LOW|UNKNOWN/.test(text), 'the pending actions above the timeline', 20_000);
	fits(screen, columns);
	return screen;
}

describe('triage end to end in tmux', {skip, concurrency: 2}, () => {
	test('160x48: n finds the waiting conversation, a approves it, the agent runs on', {timeout: 60_000}, async () => {
		const {tmux} = await launch(160, 48);
		await openWaiting(tmux, 160);
		tmux.send('a');
		await tmux.waitFor((text) => /Approve .*pending action.*\[y\/n\]/.test(text) && /risk: /.test(text), 'the question with the actions and their risk');
		tmux.send('y');
		await tmux.waitFor((text) => text.includes('Approved '), 'the approval sent', 20_000);
		await tmux.waitFor((text) => !text.includes('Waiting for you: '), 'the panel gone once nothing waits', 20_000);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('80x24: x rejects with a reason, m sends a message, P pauses every running sandbox with per-item results', {timeout: 80_000}, async () => {
		const {tmux, simulator} = await launch(80, 24);
		await openWaiting(tmux, 80);
		tmux.send('x');
		await tmux.waitFor((text) => /Reject .*pending action.*\[y\/n\]/.test(text), 'the question with the actions');
		tmux.send('y');
		await tmux.waitFor((text) => text.includes('reason (optional)'), 'the reason field');
		tmux.send('not on main, please', {literal: true});
		await tmux.waitFor((text) => text.includes('not on main, please'), 'the typed reason');
		tmux.send('Enter');
		await tmux.waitFor((text) => text.includes('Rejected '), 'the rejection sent', 20_000);
		let screen = await tmux.waitFor((text) => !text.includes('Waiting for you: ') && /rejected/.test(text), 'the rejection in the timeline', 20_000);
		fits(screen, 80);
		const rejected = simulator.world.liveConversations().find((conversation) => JSON.stringify(simulator.world.events(conversation)).includes('not on main, please'));
		assert.ok(rejected, 'the server got the reason');

		tmux.send('m');
		await tmux.waitFor((text) => text.includes('message:'), 'the message field');
		tmux.send('Use a branch instead', {literal: true});
		await tmux.waitFor((text) => text.includes('Use a branch instead'), 'the typed message');
		tmux.send('Enter');
		await tmux.waitFor((text) => text.includes('Message sent to '), 'the message sent', 20_000);

		// Bulk: every running sandbox of the (unfiltered) list.
		tmux.send('1');
		await tmux.waitFor((text) => text.includes('[1 Conversations'), 'the list');
		tmux.send('P');
		screen = await tmux.waitFor((text) => /Pause \d+ sandbox/.test(text), 'the bulk pause list');
		fits(screen, 80);
		const count = /Pause (\d+) sandbox/.exec(screen)?.[1] ?? '0';
		// Each running sandbox once, though some hold two conversations.
		const world = simulator.world;
		const running = new Set(world.conversationList().map((conversation) => world.findSandbox(conversation.sandboxId)).filter((sandbox) => sandbox && ['RUNNING', 'STARTING'].includes(String(sandbox.status))).map((sandbox) => sandbox!.id));
		const shared = world.conversationList().filter((conversation) => running.has(String(conversation.sandboxId))).length - running.size;
		assert.ok(shared >= 2, `conversations share running sandboxes (${shared} more conversations than sandboxes)`);
		assert.equal(Number(count), running.size, `${running.size} running sandboxes, each once`);
		// Enter alone does nothing: the count typed after it (keys are read in order) lands in the
		// same, still open, confirmation field, and nothing was paused meanwhile.
		tmux.send('Enter');
		tmux.send(count, {literal: true});
		screen = await tmux.waitFor((text) => text.includes(`confirm: ${count}`), 'the typed count');
		assert.ok(screen.includes(`Type ${count} or pause`), 'enter alone does nothing');
		assert.equal(simulator.stats.byRoute['POST /api/v1/sandboxes/:id/pause'] ?? 0, 0, 'nothing paused before the count was typed');
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => text.includes(`${count} of ${count} done · 0 failed`), 'every sandbox paused', 30_000);
		assert.equal(simulator.stats.byRoute['POST /api/v1/sandboxes/:id/pause'], Number(count), 'one pause per sandbox');
		fits(screen, 80);
		assert.match(screen, /✓ \S+ +paused/);
		tmux.send('Escape');
		await tmux.waitFor((text) => text.includes('[1 Conversations'), 'back on the list');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
