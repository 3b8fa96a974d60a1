import {test} from 'node:test';
import assert from 'node:assert/strict';
import {CauseQueue} from '../source/view/triage/CauseQueue.js';
import {fixtureSnapshot} from './helpers/dashboard-fixture.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/**
 * `!`'s dead line: how many; while the data has not confirmed its
 * clock no age decides "dead", and the line says so instead of a count.
 */

const deadLine = (frame: string) => frame.split('\n').find((line) => line.includes('☠')) ?? '';

test('the dead line counts the rows the store marked dead, and they are not in the groups above it', async () => {
	const snapshot = fixtureSnapshot();
	const [first, second] = [...snapshot.conversations.values()];
	const conversations = new Map(snapshot.conversations);
	for (const row of [first!, second!]) conversations.set(row.key, {...row, attention: [], dead: {afterMs: 7 * 86_400_000}});
	const handed: string[] = [];
	const rendered = renderSized(
		<CauseQueue snapshot={{...snapshot, conversations}} now={Date.now()} width={100} height={20} onShow={() => undefined} onRemedy={() => undefined} onRefused={() => undefined} onClearDead={(keys) => handed.push(...keys)} onClose={() => undefined} />,
		{columns: 100, rows: 20},
	);
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('☠'));
	assert.equal(deadLine(frame), '☠ 2 dead (ERROR/MISSING, unchanged 7d+) — D to clear');
	// The groups count the others only.
	const needing = [...conversations.values()].filter((row) => !row.dead && row.attention.some((reason) => reason.kind !== 'sub_agent')).length;
	assert.match(frame, new RegExp(`What needs you, by cause: ${needing} conversations?`));
	assert.ok(needing < [...snapshot.conversations.values()].filter((row) => row.attention.length > 0).length, 'the dead ones needed you before');
	assert.deepEqual(handed, [], 'nothing handed on before D (D itself is driven in test/e2e-dead-group.test.ts)');
	rendered.unmount();
});

test('while ages rest on an unconfirmed clock the line says why nothing is dead; with none dead on a known clock, no line', async () => {
	const assumed = fixtureSnapshot();
	const rendered = renderSized(
		<CauseQueue snapshot={{...assumed, connection: {...assumed.connection, agesAssumed: true}}} now={Date.now()} width={120} height={20} onShow={() => undefined} onRemedy={() => undefined} onRefused={() => undefined} onClose={() => undefined} />,
		{columns: 120, rows: 20},
	);
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('What needs you'));
	assert.match(deadLine(frame), /not told until the data confirms its clock/);
	rendered.unmount();
	const known = renderSized(<CauseQueue snapshot={fixtureSnapshot()} now={Date.now()} width={120} height={20} onShow={() => undefined} onRemedy={() => undefined} onRefused={() => undefined} onClose={() => undefined} />, {columns: 120, rows: 20});
	const plain = await waitForFrame(known.lastFrame, (text) => text.includes('What needs you'));
	assert.equal(deadLine(plain), '');
	known.unmount();
});
