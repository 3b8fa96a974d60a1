import {test} from 'node:test';
import assert from 'node:assert/strict';
import {drawsLive, inCi, inkTerminalScreen} from '../source/view/terminal-screen.js';

/** Ink 8 owns the terminal's modes; ours is the fallback when Ink cannot unmount, and Ink's own CI test. */

test('CI as is-in-ci 2 reads it: CI or CONTINUOUS_INTEGRATION, set and not 0 or false', () => {
	assert.equal(inCi({}), false);
	assert.equal(inCi({CI: ''}), true, 'an empty CI counts: e2e tests run the app with env -u CI');
	assert.equal(inCi({CI: 'true'}), true);
	assert.equal(inCi({CI: '0'}), false);
	assert.equal(inCi({CI: 'false'}), false);
	assert.equal(inCi({CONTINUOUS_INTEGRATION: '1'}), true);
	assert.equal(drawsLive({isTTY: true}, {}), true);
	assert.equal(drawsLive({isTTY: true}, {CONTINUOUS_INTEGRATION: 'yes'}), false);
	assert.equal(drawsLive({isTTY: false}, {}), false);
});

test("the screen is given back by Ink's unmount; by hand only when that throws, and once", () => {
	const written: string[] = [];
	const stdout = {isTTY: true, write: (chunk: string) => written.push(chunk)};
	let leaves = 0;
	const screen = inkTerminalScreen(stdout, () => leaves++, {});
	assert.equal(screen.active, true);
	screen.restore();
	screen.restore();
	assert.equal(leaves, 1);
	assert.deepEqual(written, [], 'Ink restored it: nothing written by hand');

	const broken = inkTerminalScreen(stdout, () => {
		throw new Error('Ink is gone');
	}, {});
	broken.restore();
	broken.restore();
	assert.deepEqual(written, ['\u001B[<u\u001B[?2004l\u001B[?1049l\u001B[?25h'], 'keyboard mode popped, paste off, normal screen, cursor shown, once');
	assert.equal(inkTerminalScreen({isTTY: false, write: () => true}, () => undefined, {}).active, false);
});
