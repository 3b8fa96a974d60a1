import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {parseClockOffset} from '../source/simulator/clock.js';
import {zoneLabel} from '../source/state/data-clock.js';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * In a real terminal (tmux), against a simulator whose `Date` header is right while its data is
 * written by a clock 24 days and 31 s behind (a proxy in front of the server stamps the header):
 * the header says the data's clock is behind, no age reads `24d`, and following a live
 * conversation the lag reads about a second, never the `⚠ 31s behind` that rounding left, with the
 * zone of the event times said.
 */

const lines = screenLines;
const launch = dashboardLauncher({seed: 7, tickMs: 300, conversations: 24, dataClockOffsetMs: parseClockOffset('-24d31s')!, maxRunningSandboxes: 3, startingSandboxes: 1});

describe('ages and lag on the data clock, in tmux', {skip: tmuxSkip}, () => {
	test('160x48: data clock 24d behind in the header, no 24d ages, lag about a second, times with their zone', {timeout: 90_000}, async () => {
		const {tmux} = await launch(160, 48);
		let screen = await tmux.waitFor((text) => /⏱ data clock 24d behind/.test(lines(text)[0] ?? '') && text.includes('AGENT'), 'the data clock in the header', 30_000);
		assertFits(screen, 160);
		const rows = lines(screen).slice(1).join('\n');
		assert.doesNotMatch(rows, /\b2[3-5]d\b/, 'no age on the list reads weeks');
		// Open the running conversation that never ends (its title: Backfill November analytics events).
		tmux.send('/');
		await tmux.waitFor((text) => text.includes(' of '), 'the filter line');
		tmux.send('Backfill status:running', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => (lines(text).find((line) => line.startsWith('› ')) ?? '').includes('Backfill'), 'the running conversation selected');
		tmux.send('Enter');
		const zone = zoneLabel(-new Date().getTimezoneOffset() * 60_000);
		screen = await tmux.waitFor((text) => /▸ running · live · lag (<1s|1s) .*· (times )?UTC([+-][\d:]+)?\s*$/m.test(text), 'the live timeline with its lag and zone', 30_000);
		assert.match(screen, new RegExp(` ${zone.replace('+', '\\+')}\\s*$`, 'm'));
		// For ten seconds of events: the lag never reads 31 s (or anything past 2 s).
		const deadline = Date.now() + 10_000;
		while (Date.now() < deadline) {
			screen = tmux.capture();
			assert.doesNotMatch(screen, /⚠ \d+s behind/, `a false lag:\n${screen}`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		assert.match(screen, /lag (<1s|1s)/);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
