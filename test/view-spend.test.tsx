import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {computeAttention} from '../source/state/attention.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {spendParts} from '../source/view/ConversationPreview.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {conversationRow, fixtureNow, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/**
 * Spend on screen: each row's cost per hour ($/H, from 86 columns), the fleet's total per hour in
 * the header, and in the preview the rate, the share of the task budget and the time left before
 * the 12-hour session cap; a spender without progress says so in its badge and preview.
 */

const hour = 3_600_000;

function row(n: number, title: string, extra: {cost: number; budget?: number; rate: number | null; start?: {at: number; exact: boolean}; spending?: {since: number; spent: number}}): ConversationRow {
	const base = conversationRow({id: hexId(n), title, execution: 'running', cost: extra.cost});
	const conversation = appConversationSchema.parse({...base.conversation, metrics: {accumulated_cost: extra.cost, max_budget_per_task: extra.budget ?? null}});
	const attention = computeAttention({conversation, now: fixtureNow, lastActivityAt: base.lastActivityAt, executionStatus: 'running', spending: extra.spending ?? null});
	return {...base, conversation, attention, costPerHour: extra.rate, sessionStart: extra.start ?? null};
}

function snapshot() {
	const rows = [
		row(1, 'Burns money thinking', {cost: 3.2, budget: 5, rate: 31, start: {at: fixtureNow - 2 * hour, exact: true}, spending: {since: fixtureNow - 14 * 60_000, spent: 2.1}}),
		row(2, 'Steady worker', {cost: 1.5, budget: 10, rate: 4.2, start: {at: fixtureNow - 11.5 * hour, exact: false}}),
		row(3, 'Just started', {cost: 0.02, rate: null}),
	];
	return fixtureSnapshot({conversations: new Map(rows.map((entry) => [entry.key, entry]))});
}

function assertFits(frame: string, columns: number) {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
}

test('the preview says the rate, the budget share and the 12-hour cap; ≥ when the session start was not seen', () => {
	const rows = [...snapshot().conversations.values()];
	assert.deepEqual(spendParts(rows[0]!, fixtureNow), ['$31.0/h', '64% of the $5.00 budget', '12h cap in 10h 00m']);
	assert.deepEqual(spendParts(rows[1]!, fixtureNow), ['$4.20/h', '15% of the $10.0 budget', '12h cap in ≥30m 00s']);
	assert.deepEqual(spendParts(rows[2]!, fixtureNow), [], 'no rate yet, no budget, no session known: nothing invented');
});

test('120 columns: a $/H column per row, the fleet total in the header, the spender first with its badge', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 120, rows: 24});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Steady worker'));
	assertFits(frame, 120);
	const lines = frame.split('\n');
	assert.match(lines[0]!, /\$35\.2\/h/, 'the header sums the rates: 31 + 4.20');
	assert.match(frame, /COST +CTX +\$\/H/);
	const line = (title: string) => lines.find((entry) => entry.includes(title)) ?? '';
	assert.match(line('Steady worker'), /\$1\.50 +— +4\.20$/);
	assert.match(line('Just started'), /\$0\.02 +— +—$/, 'no rate yet is said as unknown, not 0');
	assert.match(line('Burns money'), /! \$ stalled( 1\dm)? · Burns money/);
	assert.ok(lines.indexOf(line('Burns money')) < lines.indexOf(line('Steady worker')), 'spending without progress needs you');
	// The selected (first) row's preview: why, then its money and time. The view's clock is the real
	// one cut to 5 s (use-now.ts), the session began 2 h before fixtureNow: the cap is 10h 00m away
	// until that clock passes fixtureNow, 9h 59m after (a render that crosses a 5 s step).
	assert.match(frame, /! \$2\.10 spent in 1\dm without an action or observation · \$31\.0\/h · 64% of the \$5\.00 budget · 12h cap in (?:10h 00m|9h 59m)/);
	rendered.unmount();
});

test('80 columns: no $/H column (the title keeps its room), the preview still says the rate', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 80, rows: 24});
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Steady worker'));
	assertFits(frame, 80);
	assert.doesNotMatch(frame, /\$\/H/);
	assert.match(frame, /\$31\.0\/h/);
	rendered.unmount();
});
