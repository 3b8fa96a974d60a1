import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {Simulator} from '../source/simulator/server.js';
import type {ResumeStepReport} from '../source/state/dashboard-types.js';
import {planResumes} from '../source/state/resume-plan.js';
import {waitForSnapshot} from './helpers/store-wait.js';
import {twoServers} from './helpers/sim-fleet.js';
import {watchSimulator} from './helpers/sim-watch.js';

/**
 * The resume remedy in the all-servers view (issue 41, item 4): each server's list is read again
 * and its resumes go one step at a time, so no server ends with more running than its cap; the
 * reports come back keyed as the view keys its rows.
 */

const poll = {budget: {perSecond: 200, perMinute: 10_000}, intervals: {refreshMs: 60_000, sandboxesMs: 60_000, sandboxesPendingMs: 150, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400}};
const running = (sim: Simulator) => sim.world.sandboxList().filter((sandbox) => sandbox.status === 'RUNNING').length;

test('every profile at once: resuming paused sandboxes on two servers at their caps re-reads each list and never leaves more running than a cap', {timeout: 90_000}, async (t) => {
	const options = {seed: 11, conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 250, startTaskPhaseMs: 20};
	const {work, lab, fleet} = await twoServers(t, options, options, poll, {runningSandboxCap: 3});
	const loaded = await waitForSnapshot(fleet.store, (s) => s.conversations.size === 24 && s.sandboxesListed, 'both servers listed');
	assert.equal(running(work), 3);
	assert.equal(running(lab), 3);
	// Two paused sandboxes on each server: four resumes against two caps of 3.
	const paused = (server: string) => [...loaded.sandboxes.values()].filter((row) => row.server?.name === server && String(row.sandbox.status) === 'PAUSED').slice(0, 2).map((row) => row.key);
	const targets = [...paused('work'), ...paused('lab')];
	assert.equal(targets.length, 4);

	const reaches = [watchSimulator(work), watchSimulator(lab)];
	const fresh = await fleet.controller.freshSandboxes!();
	assert.ok([...fresh.keys()].every((key) => fleet.store.getSnapshot().sandboxes.has(key)), 'the fresh rows are keyed as the view keys them');
	const reports: ResumeStepReport[] = [];
	const plan = planResumes(fresh, targets, null);
	await fleet.controller.resumeInSteps!(targets, new Map(plan.steps.map((step) => [step.sandboxKey, step.pauses])), (report) => reports.push(report), () => false);
	const done = reports.filter((report) => report.state === 'done');
	assert.equal(done.length, 4, JSON.stringify(reports));
	assert.ok(done.every((report) => targets.includes(report.key)), 'the reports name the rows as the view keys them');
	// Once every transition at the simulators has ended: what the service was left running.
	for (const [index, sim] of [work, lab].entries()) await reaches[index]!(() => !sim.world.sandboxList().some((sandbox) => sandbox.transition), 'the simulator settled', 10_000).catch(() => undefined);
	assert.ok(running(work) <= 3 && running(lab) <= 3, `running: work ${running(work)}, lab ${running(lab)} against caps of 3`);
});
