import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {dashboardLauncher, filterLine, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Keys typed faster than the link carries them arrive in one read. In a real terminal against the
 * built CLI: ten `j` at once (key repeat over a slow link) move ten rows; `g/status:error` and Enter
 * at once go to the top, open the filter, type and apply it; a paste outside a text field runs
 * nothing, and the notice line says it was held back.
 */

const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30});
const rowIndex = (screen: string) => screenLines(screen).findIndex((line) => line.startsWith('› '));

describe('keys typed ahead in tmux', {skip: tmuxSkip}, () => {
	test('100x30: a key repeated in one read, a key before the filter, and a paste', {timeout: 60_000}, async () => {
		const {tmux} = await launch(100, 30);
		const first = await tmux.waitFor((text) => /Conversations \(30\)/.test(text) && rowIndex(text) > 0, 'the list', 20_000);
		const top = rowIndex(first);

		tmux.send('jjjjjjjjjj', {literal: true});
		await tmux.waitFor((text) => rowIndex(text) === top + 10, 'ten rows down');

		tmux.send('g/status:error\r', {literal: true});
		const filtered = await tmux.waitFor((text) => /^\/ status:error \d+ of 30/.test(filterLine(text)), 'the filter typed and applied (counting its rows)');
		assert.match(screenLines(filtered)[rowIndex(filtered)] ?? '', /✗ error/, 'an error row selected');

		tmux.send('Escape');
		await tmux.waitFor((text) => !/ of 30/.test(text), 'the filter cleared');
		// Letters that would quit, pause and resume if they ran as keys.
		tmux.send('please quit and resume', {literal: true});
		const held = await tmux.waitFor((text) => text.includes('Held back 22 characters'), 'the paste held back and said');
		assert.ok(!held.includes('EXIT='), 'the dashboard is still running');
		assert.doesNotMatch(held, /Pause|Resume .*\[y\/n\]/, 'no question was opened by the pasted letters');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'q still quits');
	});
});
