import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {assertFits, dashboardLauncher, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * A looping conversation nobody opened is in the `!` queue (issue 41, item 5): the simulator's
 * scripted stuck loop, seeded mid-loop (running, the same apply_patch three times over). The
 * dashboard reads the newest events of every running conversation in turn and groups it under
 * "repeating a tool call", with the other causes.
 */

const launch = dashboardLauncher({seed: 3, tickMs: 0, conversations: 12, loopingStuck: true});

describe('repeating in the ! queue, in tmux', {skip: tmuxSkip}, () => {
	test('a looping conversation never opened is grouped as repeating a tool call', {timeout: 150_000}, async () => {
		const {tmux} = await launch(120, 30);
		await tmux.waitFor((text) => text.includes('Conversations ('), 'the list');
		tmux.send('!');
		const screen = await tmux.waitFor((text) => text.includes('What needs you, by cause') && text.includes('repeating a tool call'), 'the repeating group', 120_000);
		assertFits(screen, 120);
		// The queue lists the other causes beside it: not a screen of one group only.
		assert.match(screen, /stuck|error|approval|waiting/);
		assert.match(screen, /repeating a tool call +1 /, 'one conversation, the looping one');
	});
});
