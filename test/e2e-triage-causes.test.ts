import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Causes, not rows, in a real terminal against the simulator's classified errors: `!` shows what
 * needs you grouped by cause with a count and the oldest age (rate limits, a spent budget, a
 * refused key, stuck, a sandbox down with its reason); `C` lists every retryable error and asks;
 * `y` runs each again (POST run) and the server has them running; the groups without a safe
 * remedy are left alone.
 */

const launch = dashboardLauncher({seed: 3, tickMs: 0, triageCases: true, sharedSandboxes: true, conversations: 30});

const lineWith = (screen: string, text: string) => screenLines(screen).find((line) => line.includes(text)) ?? '';

describe('causes end to end in tmux', {skip: tmuxSkip}, () => {
	for (const [columns, rows] of [
		[120, 30],
		[80, 24],
	] as const) {
		test(`${columns}x${rows}: ! groups by cause with counts; C runs every retryable error after listing them; quota and auth stay`, {timeout: 90_000}, async () => {
			const {tmux, simulator} = await launch(columns, rows);
			await tmux.waitFor((text) => text.includes('Conversations ('), 'the list');
			tmux.send('!');
			// Every error read and grouped (none left "reading why").
			let screen = await tmux.waitFor((text) => text.includes('What needs you, by cause') && text.includes('rate limit') && text.includes('error · auth') && !text.includes('reading why'), 'the groups', 30_000);
			assertFits(screen, columns);
			const rateLimited = simulator.world.conversationList().filter((conversation) => conversation.executionStatus === 'error' && JSON.stringify(simulator.world.events(conversation).at(-2) ?? {}).includes('rate_limit'));
			assert.ok(rateLimited.length >= 2, `${rateLimited.length} rate-limited conversations in the simulator`);
			assert.match(lineWith(screen, 'rate limit'), new RegExp(`error · rate limit · retryable +${rateLimited.length} +\\d+[smhd]`));
			assert.match(lineWith(screen, 'error · quota'), /error · quota +1 +\d+[smhd]/);
			assert.match(lineWith(screen, 'error · auth'), /error · auth +1 +\d+[smhd]/);
			assert.match(lineWith(screen, 'waiting for approval'), /waiting for approval +1 /);
			assert.match(screen, /sandbox error: ImagePull/);
			if (columns >= 120) assert.match(lineWith(screen, 'error · quota'), /raise max_budget_per_task/);
			tmux.send('Escape');
			await tmux.waitFor((text) => !text.includes('What needs you, by cause'), 'the queue closed');

			// One key: every retryable error, listed, then y/n.
			tmux.send('C');
			screen = await tmux.waitFor((text) => /Run \d+ conversations? again \(every retryable error\)\? \[y\/n\]/.test(text), 'the preview');
			assertFits(screen, columns);
			assert.match(screen, new RegExp(`Run ${rateLimited.length} conversations again`));
			for (const conversation of rateLimited) assert.ok(screen.includes(conversation.id.slice(0, 8)), `${conversation.id.slice(0, 8)} listed`);
			assert.ok(rateLimited.every((conversation) => conversation.executionStatus === 'error'), 'nothing ran before y');
			tmux.send('y');
			await tmux.waitFor((text) => new RegExp(`${rateLimited.length} of ${rateLimited.length} done · 0 failed`).test(text), 'every one run', 30_000);
			assert.ok(rateLimited.every((conversation) => conversation.executionStatus === 'running'), 'the server has them running again');
			const quota = simulator.world.conversationList().find((conversation) => conversation.scenario === 'quota')!;
			assert.equal(quota.executionStatus, 'error', 'the spent budget is left alone');
			tmux.send('Escape');
			await tmux.waitFor((text) => !text.includes('of 3 done') && !text.includes('done · 0 failed'), 'the panel closed');
			// The queue follows: no rate-limit group once the polls have seen them run.
			tmux.send('!');
			screen = await tmux.waitFor((text) => text.includes('What needs you, by cause') && !text.includes('rate limit') && text.includes('error · quota'), 'the rate-limit group gone', 30_000);
			tmux.send('Escape');
			await tmux.waitFor((text) => !text.includes('What needs you, by cause'), 'the queue closed');
			tmux.send('q');
			await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
		});
	}
});
