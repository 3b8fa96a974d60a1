import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';
import type {Simulator} from '../source/simulator/server.js';
import {startingSandboxDetail} from '../source/simulator/seed-world.js';

/**
 * A month of history in a real terminal: the simulator seeded with 30 days of ended conversations
 * (`historyDays`). `!` leaves the old ERROR/MISSING ones out and says them in one line
 * (`☠ N dead …`), N being exactly the simulator's ERROR/MISSING conversations unchanged for 7 days;
 * the recent ERROR ones stay a cause. `D` lists them, a typed count deletes exactly those at the
 * simulator, nothing else. The sandboxes left STARTING (`startingSandboxes`) are a cause.
 */

const launch = dashboardLauncher({seed: 4, tickMs: 0, conversations: 20, historyDays: 30, startingSandboxes: 2});
const weekMs = 7 * 86_400_000;

function oldDead(simulator: Simulator) {
	const now = simulator.world.now();
	return simulator.world.conversationList().filter((conversation) => {
		const status = simulator.world.findSandbox(conversation.sandboxId)?.status ?? 'MISSING';
		return (status === 'ERROR' || status === 'MISSING') && conversation.updatedAt <= now - weekMs;
	});
}

describe('the dead group end to end in tmux', {skip: tmuxSkip}, () => {
	test('120x30: ! says the old ERROR/MISSING apart; D deletes exactly them after a typed count', {timeout: 120_000}, async () => {
		// A budget of 2,000 a minute (AGENT_TUI_POLL): the deletes are still paced by it, but fifty take
		// seconds, not the minute the hosted 100 would (a test file must end inside a minute on Node 22).
		const {tmux, simulator} = await launch(120, 30, {env: {AGENT_TUI_POLL: 'perSecond=20,perMinute=2000'}});
		const dead = oldDead(simulator);
		const recentErrors = simulator.world.conversationList().filter((conversation) => simulator.world.findSandbox(conversation.sandboxId)?.status === 'ERROR' && !dead.includes(conversation) && conversation.title.includes('(day -'));
		assert.ok(dead.length >= 20, `${dead.length} old ERROR/MISSING conversations seeded`);
		assert.ok(recentErrors.length > 0, 'recent ERROR ones seeded too');
		const before = simulator.world.conversationList().length;
		// Their sandboxes still there to delete: the ERROR ones (a MISSING one is gone already).
		const errorSandboxes = dead.filter((conversation) => simulator.world.findSandbox(conversation.sandboxId)?.status === 'ERROR').length;
		await tmux.waitFor((text) => text.includes('Conversations ('), 'the list');
		tmux.send('!');
		let screen = await tmux.waitFor((text) => text.includes('What needs you, by cause') && text.includes(`☠ ${dead.length} dead`) && new RegExp(`sandbox error: OOMKilled +${recentErrors.length} `).test(text), `the queue with ${dead.length} dead and ${recentErrors.length} recent sandbox errors`, 30_000);
		assertFits(screen, 120);
		const deadLine = screenLines(screen).find((line) => line.includes('☠')) ?? '';
		assert.match(deadLine, new RegExp(`☠ ${dead.length} dead \\(ERROR/MISSING, unchanged 7d\\+\\) — D to clear`));
		// The recent failures are still a cause, counted there, not among the dead.
		const oom = screenLines(screen).find((line) => line.includes('OOMKilled')) ?? '';
		assert.match(oom, new RegExp(`sandbox error: OOMKilled +${recentErrors.length} `));
		// The sandboxes left STARTING are a cause of their own, with the runtime's reason.
		assert.match(screen, new RegExp(`sandbox not starting: ${startingSandboxDetail.slice(0, 10)}.* +2 +\\d+[mhd] `));

		tmux.send('D');
		screen = await tmux.waitFor((text) => text.includes(`Delete ${dead.length} dead conversations`) && text.includes(`Type ${dead.length} or delete`), 'the preview');
		assertFits(screen, 120);
		assert.equal(simulator.world.conversationList().length, before, 'nothing deleted before the count is typed');
		tmux.send('1');
		tmux.send('Enter');
		// A wrong count confirms nothing.
		await tmux.waitFor((text) => text.includes(`Type ${dead.length} or delete`), 'still asking');
		assert.equal(simulator.world.conversationList().length, before, 'a wrong count deletes nothing');
		tmux.send('BSpace');
		tmux.send(String(dead.length), {literal: true});
		tmux.send('Enter');
		// Paced inside the request budget (the one set above, polls included).
		screen = await tmux.waitFor((text) => new RegExp(`${dead.length} deleted \\(${errorSandboxes} sandboxes\\) · 0 left out · 0 failed · enter/esc closes`).test(text), 'every one deleted', 90_000);
		const left = new Set(simulator.world.conversationList().map((conversation) => conversation.id));
		assert.equal(left.size, before - dead.length, 'exactly the previewed ones are gone');
		for (const conversation of dead) assert.ok(!left.has(conversation.id), `${conversation.id} deleted`);
		for (const conversation of dead) {
			const sandbox = simulator.world.findSandbox(conversation.sandboxId);
			assert.ok(!sandbox || sandbox.status === 'MISSING', `its sandbox ${conversation.sandboxId} is gone (${sandbox?.status})`);
		}
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('dead conversations and the sandboxes'), 'the panel closed');
		tmux.send('!');
		await tmux.waitFor((text) => text.includes('What needs you, by cause') && !text.includes('☠') && text.includes('OOMKilled'), 'no dead left, the recent errors still there', 30_000);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you, by cause'), 'the queue closed');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
