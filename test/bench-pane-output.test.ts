import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {test} from 'node:test';
import {promisify} from 'node:util';
import {waitForScreenOnOutput} from '../bench/pane-output.js';
import {tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {startTmux} from './helpers/tmux.js';

/**
 * The start-up bench's observer (bench/pane-output.ts): it must find the frame it waits for
 * whether the pane drew it before or after the observer attached, and read the screen only when
 * the pane writes, so the observer does not take CPU from the launch it times.
 */

const run = promisify(execFile);

test('the start-up observer reads the screen once while the pane is silent, then finds output written later', {timeout: 30_000, skip}, async () => {
	const tmux = startTmux({columns: 60, rows: 8, command: `read answer; printf 'GO-%s\\n' "$answer"; sleep 30`});
	try {
		let reads = 0;
		let firstRead!: () => void;
		const readOnce = new Promise<void>((resolve) => {
			firstRead = resolve;
		});
		let resolved = false;
		const shown = waitForScreenOnOutput(tmux.socket, tmux.target, (screen) => screen.includes('GO-now'), {
			onRead() {
				reads++;
				firstRead();
			},
		}).then(() => {
			resolved = true;
		});
		// Awaited below; kept from an unhandled rejection if an assertion fails first.
		shown.catch(() => undefined);
		await readOnce;
		// Fifty round trips to the tmux server while the pane writes nothing: an observer reading
		// on a timer would read many times meanwhile (each trip forks a client), this one not at all.
		for (let trip = 0; trip < 50; trip++) await run('tmux', ['-L', tmux.socket, 'display-message', '-p', '-t', tmux.target, '#{pane_id}']);
		assert.equal(reads, 1, 'the screen was read while the pane wrote nothing');
		assert.equal(resolved, false);
		tmux.send(['now', 'Enter']);
		await shown;
		assert.equal(resolved, true);
		assert.match(tmux.rawCapture(), /GO-now/);
		assert.ok(reads >= 2 && reads <= 6, `${reads} reads for two pieces of output`);
	} finally {
		tmux.kill();
	}
});

test('the start-up observer finds a frame the pane drew before it attached', {timeout: 30_000, skip}, async () => {
	const tmux = startTmux({columns: 60, rows: 8, command: `printf 'READY\\n'; sleep 30`});
	try {
		await tmux.waitFor((screen) => screen.includes('READY'), 'READY');
		let reads = 0;
		await waitForScreenOnOutput(tmux.socket, tmux.target, (screen) => screen.includes('READY'), {onRead: () => reads++});
		assert.equal(reads, 1);
	} finally {
		tmux.kill();
	}
});

test('the start-up observer fails, saying why, when the terminal goes away before the frame', {timeout: 30_000, skip}, async () => {
	const tmux = startTmux({columns: 60, rows: 8, command: 'sleep 30'});
	let reads = 0;
	const shown = waitForScreenOnOutput(tmux.socket, tmux.target, (screen) => screen.includes('never'), {
		onRead() {
			reads++;
			if (reads === 1) tmux.kill();
		},
	});
	await assert.rejects(shown, /control client exited before the screen showed/);
	assert.equal(reads, 1);
});
