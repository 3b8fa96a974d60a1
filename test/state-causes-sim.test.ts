import assert from 'node:assert/strict';
import {test} from 'node:test';
import {causeGroups} from '../source/state/causes.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The queue over the store's reading of why each conversation failed (state/error-causes.ts):
 * against the simulator's classified errors, grouped by kind, run offered for the retryable ones,
 * and running them empties their group.
 */

test('against the simulator: the errors are read and grouped by kind: 2 retryable rate limits (run), quota, auth; run makes them go again', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 3, tickMs: 0, triageCases: true, sharedSandboxes: true});
	const snapshot = await waitForSnapshot(
		store,
		(current) => {
			const keys = causeGroups(current).map((group) => group.key);
			return keys.includes('error:rate_limit') && keys.includes('error:quota') && keys.includes('error:auth') && !keys.includes('error:unread');
		},
		'every error read and grouped',
	);
	const groups = causeGroups(snapshot);
	const rate = groups.find((group) => group.key === 'error:rate_limit')!;
	// The two rate-limit cases, and the crash scenario when its seed picked a rate limit too.
	assert.ok(rate.keys.length >= 2, String(rate.keys.length));
	assert.ok(rate.keys.every((key) => snapshot.conversations.get(key)?.errorCause?.classification?.retryable === true));
	assert.equal(rate.remedy, 'run');
	assert.equal(groups.find((group) => group.key === 'error:quota')!.remedy, null);
	assert.equal(groups.find((group) => group.key === 'error:auth')!.remedy, null);
	const row = snapshot.conversations.get(rate.keys[0]!)!;
	assert.equal(row.errorCause?.code, 'LLMRateLimitError');
	// The remedy: POST run on each; the server says running, and the group empties.
	for (const key of rate.keys) assert.equal(await controller.continueAgent!(key), 'started');
	for (const key of rate.keys) assert.equal(sim.world.findConversation(key)!.executionStatus, 'running');
	await waitForSnapshot(store, (current) => !causeGroups(current).some((group) => group.key === 'error:rate_limit'), 'the rate-limit group gone once they run');
});
