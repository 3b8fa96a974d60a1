import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {screenLines, tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {eventually} from './helpers/eventually.js';
import {launch, quit, strayText} from './helpers/live-input-run.js';

/**
 * A long run of polling while the server drops every socket each second, in tmux at 80x24: only
 * the frame stays on screen and the abort listeners stay flat. Instead of ten minutes at the
 * hosted service's 100 requests/min, AGENT_TUI_POLL spaces search pages 10 ms apart (60000 /
 * (10000 × 0.6)) and makes a walk due 25 ms after the last, over 450 conversations of 5 pages a
 * walk: 1,100 search pages, each after a spacing wait, in about 25 s on the development machine.
 * Events, not time, pace the verdict: at every 100th search page the server served, the test
 * asks the probe for one listener sample (SIGURG), waits for it to be written, and reads the
 * screen. Twelve samples on any machine, fast or loaded; a slower one only takes longer, within
 * this file's timeout.
 */

const searchRoute = 'GET /api/v1/app-conversations/search';
const checkpoints = 12;
const pagesApart = 100;

type Sample = {max: number; total: number; signals: number};

test('80x24: a long run with drops keeps only the frame and flat listener counts', {skip, timeout: 120_000}, async () => {
	const run = await launch(80, 24, 450, 'perSecond=200,perMinute=10000,searchMs=25,refreshMs=200');
	const {tmux, sim, probe} = run;
	const pid = Number(readFileSync(`${probe}.pid`, 'utf8'));
	const samples = (): Sample[] =>
		existsSync(probe)
			? readFileSync(probe, 'utf8')
					.trim()
					.split('\n')
					.filter((line) => line !== '')
					.map((line) => JSON.parse(line) as Sample)
			: [];

	// Follow a running conversation's timeline while the server drops every socket each second.
	tmux.send('/status:running\r', {literal: true});
	await tmux.waitFor((text) => text.includes('esc clears'), 'running conversations');
	tmux.send('Enter');
	await tmux.waitFor((text) => text.includes('[3 Timeline') && /live|reconnecting/.test(text), 'a live timeline');
	const dropper = setInterval(() => sim.faults.dropSockets(), 1000);
	const searchesBefore = sim.stats.byRoute[searchRoute] ?? 0;
	const searches = () => (sim.stats.byRoute[searchRoute] ?? 0) - searchesBefore;
	try {
		for (let checkpoint = 0; checkpoint < checkpoints; checkpoint++) {
			// The server has served this many more pages (the test's timeout bounds a run that never gets there).
			await eventually(searches, `${checkpoint * pagesApart} search pages`, {timeoutMs: 60_000, pollMs: 50, until: (count) => count >= checkpoint * pagesApart});
			process.kill(pid, 'SIGURG');
			await eventually(() => samples().length, `listener sample ${checkpoint + 1}`, {timeoutMs: 20_000, until: (count) => count === checkpoint + 1});
			// The sample is written: the process ran its loop since the checkpoint; the screen now is what it drew.
			const screen = tmux.capture();
			// A notice of captured output, should one show, is the dashboard's own line; the rest must be the frame.
			const frame = screenLines(screen).filter((line) => !line.includes('Captured output'));
			assert.match(frame[0] ?? '', /│/, 'the header is the first line');
			assert.doesNotMatch(frame.join('\n'), strayText, `only the frame on screen:\n${screen}`);
		}
		assert.ok(searches() >= (checkpoints - 1) * pagesApart, `over 1,000 search pages (each after a spacing wait) were served: ${searches()}`);
	} finally {
		clearInterval(dropper);
	}

	const taken = samples();
	assert.equal(taken.length, checkpoints, 'one listener sample per checkpoint');
	assert.ok(taken.some((sample) => sample.total > 0), 'the probe does see abort listeners (the measure works)');
	const worst = Math.max(...taken.map((sample) => sample.max));
	const early = taken.slice(0, 3).map((sample) => sample.total);
	const late = taken.slice(-3).map((sample) => sample.total);
	assert.ok(worst <= 5, `at most ${worst} abort listeners on any one signal`);
	assert.ok(Math.max(...late) <= Math.max(...early) + 10, `listener totals stay flat: early ${early.join(',')}, late ${late.join(',')}`);
	// A warning from inside the process now, so this run is seen to log its warnings (the debug log
	// is written only when something is captured): then none of them was a listener warning.
	process.kill(pid, 'SIGUSR2');
	await tmux.waitFor((text) => text.includes('Captured output'), 'the notice about captured output');
	const log = readFileSync(join(run.config, 'agent-tui', 'debug.log'), 'utf8');
	assert.match(log, /ProbeWarning: E2E-PROBE warning while the dashboard draws/);
	assert.doesNotMatch(log, /MaxListenersExceededWarning/, 'no listener warning in the debug log');
	await quit(run);
});
