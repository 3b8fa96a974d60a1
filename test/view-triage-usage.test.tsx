import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {contextFraction, defaultUsageThresholds, setUsageThresholds, usageColor} from '../source/view/triage/usage-look.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {conversationRow, fixtureSnapshot, fixtureStore, hexId, recordingController} from './helpers/dashboard-fixture.js';
import {press, renderSized, waitForFrame} from './helpers/ink.js';

/** A healthy (finished) conversation with the metrics the app server reports. */
function withUsage(n: number, title: string, cost: number, perTurn: number, window = 200_000): ConversationRow {
	const row = conversationRow({id: hexId(n), title, execution: 'finished', cost});
	const conversation = appConversationSchema.parse({
		...row.conversation,
		metrics: {accumulated_cost: cost, accumulated_token_usage: {prompt_tokens: perTurn * 10, completion_tokens: 5000, context_window: window, per_turn_token: perTurn}},
	});
	return {...row, conversation};
}

function snapshot() {
	const rows = [withUsage(1, 'Cheap and small', 0.3, 20_000), withUsage(2, 'Nearly full context', 1.2, 184_000), withUsage(3, 'Expensive one', 27, 60_000), withUsage(4, 'Warm context', 6, 150_000)];
	return fixtureSnapshot({conversations: new Map(rows.map((row) => [row.key, row]))});
}

function assertFits(frame: string, columns: number) {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
}

const order = (frame: string, titles: string[]) =>
	titles.map((title) => ({title, at: frame.indexOf(title)})).filter((entry) => entry.at >= 0).sort((a, b) => a.at - b.at).map((entry) => entry.title);

test('context use and warning colours come from the metrics', () => {
	const rows = [...snapshot().conversations.values()];
	assert.equal(contextFraction(rows[1]!.conversation), 0.92);
	assert.equal(usageColor(rows[0]!.conversation), undefined);
	assert.equal(usageColor(rows[1]!.conversation), 'red', '92% of the context window');
	assert.equal(usageColor(rows[2]!.conversation), 'red', '$27');
	assert.equal(usageColor(rows[3]!.conversation), 'yellow', '$6 and 75%');
	assert.equal(contextFraction(conversationRow({id: hexId(9), title: 'no metrics'}).conversation), null);
});

test('warning thresholds from the config file replace the defaults', (t) => {
	t.after(() => setUsageThresholds(defaultUsageThresholds));
	const rows = [...snapshot().conversations.values()];
	setUsageThresholds({costUsd: [0.2, 1], contextFraction: [0.95, 0.99]});
	assert.equal(usageColor(rows[0]!.conversation), 'yellow', '$0.30 is past the first mark');
	assert.equal(usageColor(rows[1]!.conversation), 'red', '$1.20 is past the second');
	setUsageThresholds({costUsd: [100, 200]});
	assert.equal(usageColor(rows[2]!.conversation), undefined, '$27 is fine now, and 60k of 200k context is under the default 70%');
	assert.equal(usageColor(rows[1]!.conversation), 'red', 'the context default (92% > 90%) still applies');
});

test('120 columns: COST and CTX columns, and o sorts by cost then by context', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 120, rows: 30});
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Warm context'));
	assertFits(frame, 120);
	assert.match(frame, /COST +CTX/);
	assert.match(frame, /Nearly full context.*\$1\.20 +92%/);
	const titles = ['Cheap and small', 'Nearly full context', 'Expensive one', 'Warm context'];
	frame = await press(rendered, 'ooo', (text) => text.includes('sort: cost'));
	assert.deepEqual(order(frame, titles), ['Expensive one', 'Warm context', 'Nearly full context', 'Cheap and small']);
	frame = await press(rendered, 'o', (text) => text.includes('sort: context'));
	assert.deepEqual(order(frame, titles), ['Nearly full context', 'Warm context', 'Expensive one', 'Cheap and small']);
	// The usage cells carry the warning colour; the rest of the row does not.
	const columns = conversationColumns(118);
	const cells = conversationCells(snapshot().conversations.get(hexId(2))!, columns, Date.now());
	assert.equal(cells.usageColor, 'red');
	assert.match(cells.usage, /\$1\.20 +92%/);
	assert.doesNotMatch(cells.rest, /92%/);
	rendered.unmount();
});

test('80 columns: no CTX column, the preview says the context use and tokens instead', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot())} controller={recordingController()} onQuit={() => undefined} />, {columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Warm context'));
	await press(rendered, 'oooo', (text) => text.includes('sort: context'));
	const frame = await press(rendered, 'g', (text) => text.includes('context 92%'));
	assertFits(frame, 80);
	assert.doesNotMatch(frame, /CTX/);
	assert.match(frame, /\$1\.20 · context 92% · 1\.8M tokens/);
	rendered.unmount();
});
