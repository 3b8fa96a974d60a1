import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {describe, test} from 'node:test';
import {normalizeId} from '../source/wire/ids.js';
import {dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * `y` over SSH and tmux: the selected conversation's id goes out as OSC 52, and tmux (with
 * `set-clipboard on`) keeps it in its buffer. With tmux's default (`external`) tmux drops an
 * application's copy: the notice says so, once, with the setting it needs. `Y` copies the page.
 */

const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 12});
const selectedTitle = (screen: string) => screenLines(screen).find((line) => line.startsWith('› ')) ?? '';

describe('copy in tmux', {skip: tmuxSkip}, () => {
	test('100x30: y copies the id into tmux\'s buffer once set-clipboard is on; before, the notice says what to set', {timeout: 60_000}, async () => {
		const {tmux, simulator} = await launch(100, 30);
		const buffer = (): string | null => {
			try {
				return execFileSync('tmux', ['-L', tmux.socket, 'show-buffer'], {encoding: 'utf8'});
			} catch {
				return null;
			}
		};
		const run = (...args: string[]) => execFileSync('tmux', ['-L', tmux.socket, ...args], {encoding: 'utf8'});
		run('set-option', '-s', 'set-clipboard', 'external');
		const list = await tmux.waitFor((text) => /Conversations \(12\)/.test(text) && selectedTitle(text) !== '', 'the list', 20_000);
		const title = selectedTitle(list);
		const selected = simulator.world.conversationList().find((conversation) => conversation.title && title.includes(conversation.title.slice(0, 20)))!;
		assert.ok(selected, `the selected row's conversation: ${title}`);
		const id = normalizeId(selected.id);

		tmux.send('y');
		await tmux.waitFor((text) => text.includes('Not copied: tmux refused the copy (set-clipboard external): add `set -g set-clipboard on`'), 'the refusal said');
		assert.equal(buffer(), null, 'tmux kept nothing');

		run('set-option', '-s', 'set-clipboard', 'on');
		tmux.send('y');
		await tmux.waitFor((text) => text.includes(`Copied the id ${id.slice(0, 8)}`), 'the copy said');
		assert.equal(buffer(), id, 'the id in tmux\'s buffer');

		tmux.send('Y');
		await tmux.waitFor((text) => text.includes('Copied its web page'), 'the page copied');
		assert.doesNotMatch(tmux.capture(), /Not copied/);
		assert.equal(buffer(), `${simulator.baseUrl}/conversations/${id}`);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
