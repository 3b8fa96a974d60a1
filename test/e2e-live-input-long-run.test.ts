import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {screenLines, tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {launch, quit, sleep, strayText} from './helpers/live-input-run.js';

/**
 * A long run of polling while the server drops every socket each second, in tmux at 80x24: only
 * the frame stays on screen and the abort listeners stay flat. Instead of ten minutes at the
 * hosted service's 100 requests/min, AGENT_TUI_POLL spaces search pages 10 ms apart (60000 /
 * (10000 × 0.6)) and makes a walk due 25 ms after the last, over 450 conversations of 5 pages a
 * walk: 1,100 search pages, each after a spacing wait, in about 25 s on the development machine.
 * The count, not a time, ends the run: a slower machine takes longer, within this file's 60 s.
 */

test('80x24: a long run with drops keeps only the frame and flat listener counts', {skip, timeout: 120_000}, async () => {
	const run = await launch(80, 24, 450, 'perSecond=200,perMinute=10000,searchMs=25,refreshMs=200');
	const {tmux, sim, probe} = run;

	// Follow a running conversation's timeline while the server drops every socket each second.
	tmux.send('/status:running\r', {literal: true});
	await tmux.waitFor((text) => text.includes('esc clears'), 'running conversations');
	tmux.send('Enter');
	await tmux.waitFor((text) => text.includes('[3 Timeline') && /live|reconnecting/.test(text), 'a live timeline');
	const dropper = setInterval(() => sim.faults.dropSockets(), 1000);
	const searchesBefore = sim.stats.byRoute['GET /api/v1/app-conversations/search'] ?? 0;
	try {
		// Until the count is reached (the test's timeout bounds a run that never gets there).
		let searches = 0;
		while (searches < 1100) {
			await sleep(2000);
			const screen = tmux.capture();
			// A notice of captured output, should one show, is the dashboard's own line; the rest must be the frame.
			const frame = screenLines(screen).filter((line) => !line.includes('Captured output'));
			assert.doesNotMatch(frame.join('\n'), strayText, `only the frame on screen:\n${screen}`);
			assert.match(frame[0] ?? '', /│/, 'the header is the first line');
			searches = (sim.stats.byRoute['GET /api/v1/app-conversations/search'] ?? 0) - searchesBefore;
		}
		assert.ok(searches >= 1100, `over 1,000 search pages (each after a spacing wait) were served: ${searches}`);
	} finally {
		clearInterval(dropper);
	}

	const samples = readFileSync(probe, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as {max: number; total: number; signals: number});
	assert.ok(samples.length >= 20, `${samples.length} listener samples`);
	assert.ok(samples.some((sample) => sample.total > 0), 'the probe does see abort listeners (the measure works)');
	const worst = Math.max(...samples.map((sample) => sample.max));
	const early = samples.slice(0, 10).map((sample) => sample.total);
	const late = samples.slice(-10).map((sample) => sample.total);
	assert.ok(worst <= 5, `at most ${worst} abort listeners on any one signal`);
	assert.ok(Math.max(...late) <= Math.max(...early) + 10, `listener totals stay flat: early ${early.join(',')}, late ${late.join(',')}`);
	// A warning from inside the process now, so this run is seen to log its warnings (the debug log
	// is written only when something is captured): then none of them was a listener warning.
	process.kill(Number(readFileSync(`${probe}.pid`, 'utf8')), 'SIGUSR2');
	await tmux.waitFor((text) => text.includes('Captured output'), 'the notice about captured output');
	const log = readFileSync(join(run.config, 'agent-tui', 'debug.log'), 'utf8');
	assert.match(log, /ProbeWarning: E2E-PROBE warning while the dashboard draws/);
	assert.doesNotMatch(log, /MaxListenersExceededWarning/, 'no listener warning in the debug log');
	await quit(run);
});
