import assert from 'node:assert/strict';
import {test} from 'node:test';
import {clipboardRoute} from '../source/state/clipboard-route.js';

/**
 * Where a copy goes from where the dashboard runs: the terminal itself, screen (wrapped), or tmux,
 * whose set-clipboard decides. Asked of a tmux that answers as tmux 3.3 does (the end-to-end test
 * in test/e2e-copy.test.ts asks a real one).
 */
const tmuxAnswering = (answers: Record<string, string | Error>) => async (args: readonly string[]) => {
	const answer = answers[args.at(-1)!];
	if (answer instanceof Error) throw answer;
	return answer ?? '';
};

test('outside a multiplexer and in screen the copy is taken; in tmux set-clipboard decides', async () => {
	assert.deepEqual(await clipboardRoute({TERM: 'xterm-256color'}), {wrap: 'plain', taken: true, advice: null});
	assert.deepEqual(await clipboardRoute({STY: '1.pts-0', TERM: 'screen'}), {wrap: 'screen', taken: true, advice: null});
	const inTmux = {TMUX: '/tmp/tmux-0/default,1,0', TMUX_PANE: '%1'};
	assert.deepEqual(await clipboardRoute(inTmux, tmuxAnswering({'set-clipboard': 'on\n'})), {wrap: 'plain', taken: true, advice: null});
	const refused = await clipboardRoute(inTmux, tmuxAnswering({'set-clipboard': 'external\n', 'allow-passthrough': 'off\n'}));
	assert.equal(refused.taken, false);
	assert.match(refused.advice!, /set-clipboard external.*set -g set-clipboard on/);
	const past = await clipboardRoute(inTmux, tmuxAnswering({'set-clipboard': 'off\n', 'allow-passthrough': 'on\n'}));
	assert.deepEqual({wrap: past.wrap, taken: past.taken}, {wrap: 'tmux', taken: true});
	assert.match(past.advice!, /not in its buffer \(set-clipboard off\)/);
	// No tmux to ask (over SSH from inside one): sent as it is, nothing claimed.
	assert.deepEqual(await clipboardRoute(inTmux, tmuxAnswering({'set-clipboard': new Error('no server running')})), {wrap: 'plain', taken: true, advice: null});
});
