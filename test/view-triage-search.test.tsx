import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import type {SearchListener} from '../source/state/event-search.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, hexId, recordingController, type RecordingController} from './helpers/dashboard-fixture.js';
import {message, terminalAction} from './helpers/event-fixtures.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

type Search = {keys: readonly string[]; query: string; listener: SearchListener; cancelled: boolean};

function searchingController(): RecordingController & {searches: Search[]} {
	const searches: Search[] = [];
	const controller = Object.assign(recordingController(), {
		searches,
		searchAcross(conversationKeys: readonly string[], query: string, listener: SearchListener) {
			const search: Search = {keys: conversationKeys, query, listener, cancelled: false};
			searches.push(search);
			return () => {
				search.cancelled = true;
			};
		},
	});
	return controller;
}

test('S searches the conversations shown, lists hits as they arrive, enter opens the chosen one filtered to the query', async () => {
	const controller = searchingController();
	const store = fixtureStore(fixtureSnapshot());
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 80, rows: 24});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
	await press(rendered, 'S', (frame) => frame.includes('search:') && frame.includes('8 conversations shown'));
	await press(rendered, 'pytest', (frame) => frame.includes('search: pytest'));
	await press(rendered, keys.enter, (frame) => frame.includes('0 hits · 0 of 8 searched'));
	const search = controller.searches[0];
	assert.ok(search);
	assert.equal(search.query, 'pytest');
	assert.equal(search.keys.length, 8);

	search.listener.onHit({conversationKey: hexId(2), event: terminalAction('pytest -q tests/test_a.py')});
	search.listener.onProgress({searched: 1, skipped: 0, failed: 0, total: 8, done: false, lastError: null});
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('1 hit · 1 of 8 searched · searching…'));
	assert.match(frame, /› Upgrade React.*\$ pytest -q tests\/test_a\.py/);
	const chosen = message('user', 'please run pytest again \u001B]52;c;ZXZpbA==\u0007');
	search.listener.onHit({conversationKey: hexId(5), event: chosen});
	search.listener.onProgress({searched: 6, skipped: 2, failed: 0, total: 8, done: true, lastError: null});
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('2 hits · 6 of 8 searched · 2 not running'));
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= 80, `too wide: ${line}`);
	assert.ok(!(rendered.stdout.frames.at(-1) ?? '').includes('\u001B]52'), 'event text is sanitized');

	await press(rendered, keys.down, (text) => /› Investigate memory/.test(text));
	await press(rendered, keys.enter, (text) => text.includes('[3 Timeline') && !text.includes('search:'));
	assert.deepEqual(controller.calls.filter((call) => call.method === 'openTimeline').map((call) => call.args[0]), [hexId(5)]);
	// The store opens it (the recording controller does not): the timeline shows the query as its filter.
	// Its history arrives with the chosen event and later matches: the chosen one is selected,
	// not the newest (which following would pick).
	const events = [chosen, message('user', 'run pytest'), terminalAction('pytest -q'), message('assistant', 'unrelated words')];
	store.update(() => ({timeline: {conversationKey: hexId(5), events, version: 1, stream: {state: 'live', attempt: 0}, executionStatus: 'running', gap: false}}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('/ pytest') && /› .*please run pytest again/.test(text));
	assert.doesNotMatch(frame, /unrelated words/);
	assert.match(frame, /not following/, 'following stopped on the chosen event');
	assert.equal(search.cancelled, true, 'closing the search cancels it');
	rendered.unmount();
});

test('a new query cancels the running search; esc closes', async () => {
	const controller = searchingController();
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot())} controller={controller} onQuit={() => undefined} />, {columns: 100, rows: 24});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
	await press(rendered, 'S', (frame) => frame.includes('search:'));
	await press(rendered, 'kind:ActionEvent', (frame) => frame.includes('search: kind:ActionEvent'));
	await press(rendered, keys.enter, (frame) => frame.includes('0 of 8 searched'));
	await press(rendered, ' rm', (frame) => frame.includes('kind:ActionEvent rm'));
	await press(rendered, keys.enter, (frame) => frame.includes('0 of 8 searched'));
	await waitForFrame(rendered.lastFrame, () => controller.searches.length === 2);
	assert.equal(controller.searches[0]?.cancelled, true);
	assert.equal(controller.searches[1]?.query, 'kind:ActionEvent rm');
	await press(rendered, keys.escape, (frame) => !frame.includes('search:'));
	assert.equal(controller.searches[1]?.cancelled, true);
	rendered.unmount();
});

test('the hits\' times say their zone, as the timeline\'s header does (the agent servers\' wall clock)', async () => {
	for (const [zone, said] of [
		['UTC+1', 'times UTC+1'],
		[null, 'times server-local'],
	] as const) {
		const controller = searchingController();
		const snapshot = fixtureSnapshot();
		const store = fixtureStore({...snapshot, connection: {...snapshot.connection, eventZone: zone}});
		const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 80, rows: 24});
		await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
		await press(rendered, 'S', (frame) => frame.includes('search:'));
		await press(rendered, 'pytest', (frame) => frame.includes('search: pytest'));
		await press(rendered, keys.enter, (frame) => frame.includes('0 hits'));
		controller.searches[0]!.listener.onHit({conversationKey: hexId(2), event: terminalAction('pytest -q tests/test_a.py')});
		const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('1 hit'));
		const hit = frame.split('\n').find((line) => line.includes('pytest -q tests')) ?? '';
		assert.match(hit, / \d{2}:\d{2}:\d{2} /, 'a hit shows its time');
		assert.ok(frame.split('\n').some((line) => line.startsWith(said)), `${said} on screen:\n${frame}`);
		rendered.unmount();
	}
});
