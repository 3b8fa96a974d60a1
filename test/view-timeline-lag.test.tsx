import {test} from 'node:test';
import assert from 'node:assert/strict';
import {TimelineHeader, lagSegment} from '../source/view/timeline/TimelineHeader.js';
import {healthText, serverHealthShort} from '../source/view/health-text.js';
import {streamLabel} from '../source/view/timeline/stream-label.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/** The timeline header says how far its own stream is behind; the list's age is named as such. */

const live = {state: 'live', attempt: 0} as const;
const reconnecting = {state: 'reconnecting', attempt: 3, nextRetryInMs: 400} as const;

test('the lag segment: quiet while current, a warning once 2 s behind', () => {
	assert.equal(lagSegment(live, {lagMs: 300, behindSince: null}, 0)?.text, 'lag <1s');
	assert.equal(lagSegment(live, {lagMs: 1400, behindSince: null}, 0)?.text, 'lag 1s');
	assert.equal(lagSegment(live, {lagMs: 12_000, behindSince: null}, 0)?.text, '⚠ 12s behind');
	assert.equal(lagSegment(live, {lagMs: null, behindSince: null}, 0), null, 'nothing measured yet');
	// Down for a moment (a dropped socket being replaced): no alarm; down for longer: since when.
	assert.equal(lagSegment(reconnecting, {lagMs: 200, behindSince: 10_000}, 11_000), null);
	assert.equal(lagSegment(reconnecting, {lagMs: 200, behindSince: 10_000}, 27_000)?.text, '⚠ 17s behind');
	assert.equal(lagSegment(live, undefined, 0), null);
});

test('the timeline header shows the stream lag; the main header calls its age the list\'s', async (t) => {
	const props = {executionStatus: 'running', gap: false, width: 110, total: 40, shown: 40, descending: false, follow: true, newSincePause: 0};
	const view = renderSized(<TimelineHeader {...props} stream={reconnecting} lag={{lagMs: 100, behindSince: 1000}} now={13_000} />, {columns: 110, rows: 3});
	t.after(() => view.unmount());
	const frame = await waitForFrame(view.lastFrame, (text) => text.includes('behind'));
	assert.match(frame, /reconnecting \(attempt 3, retry in 1s\) · ⚠ 12s behind · following · 40 events/);
	view.instance.rerender(<TimelineHeader {...props} stream={live} lag={{lagMs: 100, behindSince: null}} />);
	const current = await waitForFrame(view.lastFrame, (text) => text.includes('lag <1s'));
	assert.doesNotMatch(current, /behind/);

	// Without a clock handed in, the warning still appears once the stream has been down 2 s: the
	// header keeps time itself while down (it is memoised, and no prop changes meanwhile).
	view.instance.rerender(<TimelineHeader {...props} stream={reconnecting} lag={{lagMs: 100, behindSince: Date.now()}} />);
	const early = await waitForFrame(view.lastFrame, (text) => text.includes('reconnecting'));
	assert.doesNotMatch(early, /behind/, 'not yet: a dropped socket is replaced within a second or two');
	await waitForFrame(view.lastFrame, (text) => /⚠ [23]s behind/.test(text), {timeoutMs: 5000});

	const connection = {health: 'reconnecting', lastSuccessAt: 0, lastError: null, keyRejected: false, nextRetryAt: null, requestsLastMinute: 0, budgetPerMinute: 100, clockOffsetMs: 0} as const;
	assert.equal(healthText(connection, 3000).text, '↻ reconnecting · list 3s old');
	assert.doesNotMatch(healthText(connection, 3000).text, /data/);
});

test('while no socket holds and the history is read over REST, the stream label says so', () => {
	assert.equal(streamLabel({...reconnecting, overRest: true}).text, 'reading over REST · reconnecting (attempt 3, retry in 1s)');
	assert.equal(streamLabel(reconnecting).text, 'reconnecting (attempt 3, retry in 1s)', 'nothing read meanwhile (the reads fail too)');
	// The first socket has not answered yet, the history is loaded and read on.
	assert.equal(streamLabel({state: 'backfilling', attempt: 0, overRest: true}).text, 'reading over REST · connecting');
	assert.equal(streamLabel({state: 'backfilling', attempt: 0}).text, 'loading history…');
	assert.equal(streamLabel({...live, overRest: true}).text, 'live');
});

test('a list whose polls succeed shows no age (an idle store does not publish each success); failing polls show the list\'s age', () => {
	const base = {lastError: null, keyRejected: false, nextRetryAt: null, requestsLastMinute: 0, budgetPerMinute: 100, clockOffsetMs: 0} as const;
	// Published a minute ago, when the data last changed; every poll since then succeeded.
	for (const health of ['polling', 'live'] as const) {
		const text = healthText({...base, health, lastSuccessAt: 0}, 60_000).text;
		assert.doesNotMatch(text, /ago|old|1m/, text);
		assert.equal(serverHealthShort({...base, health, lastSuccessAt: 0}, 60_000).text, health === 'live' ? '● live' : '◐');
	}
	assert.equal(healthText({...base, health: 'polling', lastSuccessAt: 0}, 60_000).text, '◐ polling');
	// Once polls fail, health changes and lastSuccessAt is exact: its age is shown.
	assert.equal(healthText({...base, health: 'stale', lastSuccessAt: 0}, 60_000).text, '! stale 1m');
	assert.equal(serverHealthShort({...base, health: 'stale', lastSuccessAt: 0}, 60_000).text, '! stale 1m');
	assert.equal(healthText({...base, health: 'offline', lastSuccessAt: 0}, 60_000).text, '✗ offline · list 1m old');
});
