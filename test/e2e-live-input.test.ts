import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {tmuxSkip as skip} from './helpers/e2e-dashboard.js';
import {inputAndStrayOutput, launch, quit} from './helpers/live-input-run.js';

/**
 * Keys read together, a bracketed paste and output from inside the process, in tmux at 80x24 and
 * 160x48 (test/helpers/live-input-run.ts says what each checks). The long run of polling with
 * socket drops is e2e-live-input-long-run.test.ts: in this file it made the file take ~50 s of
 * the runner's 60 s per file, and over 60 s beside two busy loops (2026-11-27, Node 22).
 */

test('80x24: keys read together, a bracketed paste, stray output captured', {skip, timeout: 120_000}, async () => {
	const run = await launch(80, 24, 60, 'perSecond=10,perMinute=100');
	await inputAndStrayOutput(run, 80);
	await quit(run);
	assert.ok(existsSync(join(run.config, 'agent-tui', 'debug.log')));
});

test('160x48: keys read together, a bracketed paste, stray output captured', {skip, timeout: 120_000}, async () => {
	const run = await launch(160, 48, 60, 'perSecond=10,perMinute=100');
	await inputAndStrayOutput(run, 160);
	await quit(run);
	assert.ok(existsSync(join(run.config, 'agent-tui', 'debug.log')));
});
