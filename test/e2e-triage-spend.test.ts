import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {assertFits, dashboardLauncher, screenLines, selectedRow, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Spend without progress, in a real terminal against the simulator's spender (its model is
 * called again and again, cost rises, no action and no observation come): with `--spend-after
 * 5s` its row is flagged `$ stalled`, it leads the queue's "spending without progress" group, and
 * each row, the header and the preview show money per hour. The long-runner spends too but acts
 * all the time: never flagged.
 */

const launch = dashboardLauncher({seed: 3, tickMs: 200, triageCases: true, sharedSandboxes: true, conversations: 30});

const lineWith = (screen: string, text: string) => screenLines(screen).find((line) => line.includes(text)) ?? '';

describe('spend without progress end to end in tmux', {skip: tmuxSkip}, () => {
	test('120x30: the spender is flagged within --spend-after, $/H per row and the fleet\'s total in the header; the queue groups it', {timeout: 120_000}, async () => {
		const {tmux} = await launch(120, 30, {args: ['--spend-after', '5s']});
		let screen = await tmux.waitFor((text) => text.includes('Design a caching'), 'the spender in the list');
		// Flagged once a probe of its agent server has seen no progress for 5 s while its cost rose.
		screen = await tmux.waitFor((text) => /\$ stalled/.test(lineWith(text, 'Design a caching')), 'the spender flagged', 30_000);
		assertFits(screen, 120);
		assert.ok(!/\$ stalled/.test(lineWith(screen, 'Backfill November analytics')), 'the long-runner acts: not flagged');
		// Money per hour: the spender's row, then the header (once 20 s of the servers' clock are watched).
		screen = await tmux.waitFor((text) => /\d+(\.\d+)?$/.test(lineWith(text, 'Design a caching').trim()) && /\$[\d.]+\/h/.test(screenLines(text)[0] ?? ''), 'cost per hour in the row and the header', 60_000);
		// The queue: the spender's group, its count and oldest age.
		tmux.send('!');
		screen = await tmux.waitFor((text) => text.includes('What needs you, by cause'), 'the queue');
		assertFits(screen, 120);
		assert.match(lineWith(screen, 'spending without progress'), /spending without progress +1 +\d+[smh] +enter lists them; i stops one/);
		// Enter: the list under cause:spending, the spender selected; its preview says what it spent without progress.
		// Down, one row at a time (each waits for the selection to move), to the spending group.
		// A group's line carries its oldest age, which ticks: compared with its figures masked.
		for (let step = 0; step < 12 && !selectedRow(tmux.capture()).includes('spending'); step++) {
			const before = selectedRow(tmux.capture());
			tmux.send('Down');
			await tmux.waitFor((text) => selectedRow(text) !== before, 'the selection moved');
		}
		await tmux.waitFor((text) => /› spending without progress/.test(text), 'the spending group selected');
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => text.includes('cause:spending') && text.includes('Design a caching') && /spent in \d+[smh] without an action or observation/.test(text), 'the spender under cause:spending, with its preview');
		assert.match(screen, /of the \$5\.00 budget/);
		assert.match(screen, /12h cap in ≥?\d/);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('cause:spending'), 'the filter cleared');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
