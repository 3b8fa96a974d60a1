import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fact, freshness} from '../source/state/fact.js';
import {SandboxFacts} from '../source/state/dashboard-sandboxes.js';
import {sandboxRow} from './helpers/dashboard-fixture.js';

/**
 * Facts keep where and when they came (docs/state.md): the server, the time on its data clock
 * (null while that clock is not known) and the arrival on ours; a plan tells fresh from old by
 * the arrival, on our own clock.
 */

test('freshness: fresh within the limit, old past it, missing without a fact', () => {
	const observed = {server: 'work', observedAt: null, receivedAt: 1000, via: 'lookup' as const};
	assert.deepEqual(freshness(observed, 1000, 0), {state: 'fresh', ageMs: 0});
	assert.deepEqual(freshness(observed, 1500, 500), {state: 'fresh', ageMs: 500});
	assert.deepEqual(freshness(observed, 1501, 500), {state: 'old', ageMs: 501});
	assert.deepEqual(freshness(undefined, 1501, 500), {state: 'missing', ageMs: null});
	assert.deepEqual(fact('RUNNING', observed), {value: 'RUNNING', ...observed});
});

test('sandbox facts: each answer is kept with its server, its data-clock time and its arrival; a later look-up replaces it', () => {
	let now = 10_000;
	let agesKnown = false;
	const facts = new SandboxFacts({
		server: 'work',
		now: () => now,
		serverNow: () => now - 3_600_000,
		// The data clock an hour behind ours, once it is known.
		onDataClock: (localMs) => (agesKnown ? localMs - 3_600_000 : null),
		actionTimeoutMs: 120_000,
		runningCap: null,
		conversationKeys: () => new Map(),
		notice() {},
		refreshRow() {},
		watchSandboxes() {},
		refreshSandboxes() {},
		changed() {},
	});
	const running = sandboxRow({id: 'sb1', status: 'RUNNING'}).sandbox;
	assert.equal(facts.observed('sb1'), undefined, 'nothing said yet');
	facts.onSandboxes([running], true);
	assert.deepEqual(facts.observed('sb1'), {server: 'work', observedAt: null, receivedAt: 10_000, via: 'list'});
	assert.equal(facts.rows.get('sb1')?.sandbox.status, 'RUNNING');

	now = 40_000;
	agesKnown = true;
	assert.equal(freshness(facts.observed('sb1'), now, 5_000).state, 'old', 'the list is 30 s old: a plan reads it again');
	facts.onSandboxes([{...running, status: 'PAUSED'}], false);
	assert.deepEqual(facts.observed('sb1'), {server: 'work', observedAt: 40_000 - 3_600_000, receivedAt: 40_000, via: 'lookup'});
	assert.equal(freshness(facts.observed('sb1'), now, 5_000).state, 'fresh');
	assert.equal(facts.rows.get('sb1')?.sandbox.status, 'PAUSED');
});
