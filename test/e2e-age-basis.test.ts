import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {stillFleet} from './helpers/age-fixtures.js';
import {cliAgainst, cliHome} from './helpers/cli-sim.js';
import {dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * In a real terminal (tmux), both clocks right and nothing moving (no ticks; every agent at work
 * quiet for 20 minutes, nothing written in the last 20): the dashboard tells ages and says they are
 * assumed (not `?`, not "data clock not known"), the quiet agents need you, no spend shows; and
 * the headless `conversations` tells the same ages for the same rows.
 */

const home = cliHome('e2e-ages');

const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 24});

/** A list row's AGE: the first of the two ages side by side (AGE, LAST). */
function ageColumn(line: string): string | null {
	return /\s(\d+[smhd]|\?)\s+(?:\d+[smhd]|\?)\s/.exec(line)?.[1] ?? null;
}

describe('ages on a right clock with nothing moving, in a real terminal', {skip: tmuxSkip, timeout: 90_000}, () => {
	test('told and marked assumed, quiet agents need you, no spend; headless conversations tells the same ages', async () => {
		const {tmux, simulator} = await launch(200, 40, {simulator: stillFleet});
		const screen = await tmux.waitFor((text) => text.includes('ages assumed') && /\d+ running/.test(text) && screenLines(text).filter((line) => /^[› ] [▸◆✗◌‖✓—?]/.test(line)).length >= 20, 'the list, with its ages assumed', 30_000);
		const [header = '', ...rest] = screenLines(screen);
		const rows = rest.filter((line) => /^[› ] [▸◆✗◌‖✓—?]/.test(line));
		assert.match(header, /⏱ ages assumed \(Date header\)/);
		assert.doesNotMatch(header, /not known|\/h/, header);
		assert.ok(rows.every((line) => !/ \? /.test(line)), `no ? age:\n${screen}`);
		const quiet = rows.filter((line) => /quiet \d+m/.test(line));
		assert.ok(quiet.length >= 3, `quiet agents:\n${screen}`);
		assert.ok(Number(/! (\d+) need you/.exec(header)?.[1] ?? '0') >= quiet.length);
		// No spend anywhere: every $/h cell is —.
		assert.ok(rows.every((line) => line.split('│')[0]!.trimEnd().endsWith('—')), `no rate:\n${screen}`);

		const run = await cliAgainst(simulator, home, ['conversations'], {timeoutMs: 30_000});
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stderr, /ages assume the server's Date header/);
		// The same ages on both: every row's AGE, in hours (minutes may tick over between the two reads).
		const hours = (ages: Array<string | null>) => ages.filter((age): age is string => age !== null && /h$/.test(age)).sort();
		const onScreen = hours(rows.map((line) => ageColumn(line)));
		const [, ...tableRows] = run.stdout.trimEnd().split('\n');
		const headless = hours(tableRows.map((line) => line.trim().split(/\s+/).at(-2) ?? null));
		assert.ok(onScreen.length >= 10, `${onScreen.length} ages in hours:\n${screen}`);
		assert.deepEqual(headless, onScreen, run.stdout);
	});
});
