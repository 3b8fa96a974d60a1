import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import {attentionRank, executionStatusStyle, sandboxStatusStyle, startTaskStatusStyle, type StatusStyle} from '../source/format/status-style.js';
import {executionStatuses, sandboxStatuses, startTaskStatuses} from '../source/wire/statuses.js';

const colors = new Set(['red', 'yellow', 'green', 'cyan', 'blue', 'magenta', 'gray']);

function check(style: StatusStyle) {
	assert.ok(style.known);
	assert.ok(style.word.length > 0 && style.description.length > 0);
	assert.equal(style.label, `${style.symbol} ${style.word}`);
	assert.ok(colors.has(style.color));
	// Emoji-capable symbols are drawn two cells wide by some terminals; ours are one everywhere.
	assert.ok(!/\p{Emoji}/u.test(style.symbol), style.symbol);
	assert.equal(stringWidth(style.symbol), 1);
}

test('every known status has a symbol, a word that reads without colour, and a colour', () => {
	for (const [statuses, styleOf] of [
		[executionStatuses, executionStatusStyle],
		[sandboxStatuses, sandboxStatusStyle],
		[startTaskStatuses, startTaskStatusStyle],
	] as const) {
		const words = new Set<string>();
		for (const status of statuses) {
			const style = styleOf(status);
			check(style);
			words.add(style.word);
		}

		assert.equal(words.size, statuses.length, 'words tell the statuses apart');
	}
});

test('the statuses that need a person look distinct', () => {
	assert.equal(executionStatusStyle('waiting_for_confirmation').label, '◆ waiting');
	assert.equal(executionStatusStyle('waiting_for_confirmation').color, 'yellow');
	assert.equal(executionStatusStyle('error').label, '✗ error');
	assert.equal(executionStatusStyle('error').color, 'red');
	assert.equal(executionStatusStyle('stuck').label, '◌ stuck');
	assert.equal(executionStatusStyle('running').word, 'running');
	assert.equal(executionStatusStyle('finished').word, 'finished');
	assert.equal(sandboxStatusStyle('MISSING').label, '∅ missing');
	assert.equal(startTaskStatusStyle('READY').label, '✓ ready');
});

test('unknown values are shown raw, sanitized and cut, in a neutral colour', () => {
	const archived = sandboxStatusStyle('ARCHIVED');
	assert.equal(archived.label, '? ARCHIVED');
	assert.equal(archived.color, 'gray');
	assert.equal(archived.known, false);
	assert.equal(executionStatusStyle('\u001B]0;pwned\u0007').word, '␛]0;pwned␇');
	assert.ok(stringWidth(executionStatusStyle('x'.repeat(500)).word) <= 24);
	// Case matters on the wire: `RUNNING` is a sandbox status, not an execution status.
	assert.equal(executionStatusStyle('RUNNING').known, false);
	assert.equal(executionStatusStyle('__proto__').label, '? __proto__');
	for (const missing of [null, undefined, '']) assert.equal(executionStatusStyle(missing).word, 'none');
});

test('attentionRank: waiting, error, stuck, broken sandbox, running, the rest', () => {
	const ordered: Array<[string | null, string]> = [
		['waiting_for_confirmation', 'RUNNING'],
		['error', 'RUNNING'],
		['stuck', 'RUNNING'],
		[null, 'ERROR'],
		['idle', 'MISSING'],
		['running', 'RUNNING'],
		['finished', 'RUNNING'],
	];
	const ranks = ordered.map(([execution, sandbox]) => attentionRank(execution, sandbox));
	assert.deepEqual(ranks, [0, 1, 2, 3, 3, 4, 5]);
	assert.equal(attentionRank('waiting_for_confirmation', 'MISSING'), 0);
	assert.equal(attentionRank('SOMETHING_NEW', 'PAUSED'), 5);
	assert.equal(attentionRank(undefined, undefined), 5);
	const sorted = [['idle', 'RUNNING'], ['running', 'RUNNING'], ['stuck', 'RUNNING'], ['waiting_for_confirmation', 'RUNNING']].sort(
		(a, b) => attentionRank(a[0], a[1]) - attentionRank(b[0], b[1]),
	);
	assert.deepEqual(sorted.map(([execution]) => execution), ['waiting_for_confirmation', 'stuck', 'running', 'idle']);
});
