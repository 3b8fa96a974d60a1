import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {ResumeStepReport} from '../source/state/fresh-plan.js';
import {countConversations} from '../source/state/conversation-query.js';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {normalizeId} from '../source/wire/ids.js';
import {planResumes} from '../source/state/resume-plan.js';
import {AppClient} from '../source/wire/app-client.js';
import type {Simulator} from '../source/simulator/server.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {watchSimulator} from './helpers/sim-watch.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The resume remedy at the cap with a stale sandbox list (issue 41, item 4). The store's full list
 * comes once a minute here; meanwhile another client pauses the oldest running sandbox, so the
 * old list names a sandbox the server already paused as the one the cap would pause. Resuming two
 * sandboxes must read the list again, plan each step on it, go one step at a time (the service
 * counts only RUNNING sandboxes: a second resume sent while the first is STARTING is counted
 * against one too few) and say what the server then did. Counted at the simulator itself.
 */

const running = (sim: Simulator) => sim.world.sandboxList().filter((sandbox) => sandbox.status === 'RUNNING');

test('resume remedy at the cap on a stale list: re-read, one step at a time, never more running than the cap, says what the server did', {timeout: 90_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 11, tickMs: 0, conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 250, startTaskPhaseMs: 20}, {
		dashboard: {
			runningSandboxCap: 3,
			// Conversations and the full sandbox list are read again only once a minute: what the
			// dashboard knows after the steps is what the steps read.
			intervals: {refreshMs: 60_000, sandboxesMs: 60_000, sandboxesPendingMs: 150, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400},
		},
	});
	const loaded = await waitForSnapshot(store, (snapshot) => snapshot.conversations.size === 12 && snapshot.sandboxes.size > 0, 'the lists');
	assert.equal(running(sim).length, 3, 'the seed fills the cap');
	const simulatorReaches = watchSimulator(sim);

	// Another client pauses the oldest running sandbox: the dashboard's list does not know yet.
	const oldest = [...running(sim)].sort((a, b) => a.createdAt - b.createdAt)[0]!;
	const other = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	await other.pauseSandbox(oldest.id);
	await simulatorReaches(() => oldest.status === 'PAUSED', 'the outside pause');
	const stale = store.getSnapshot().sandboxes;
	const oldestKey = [...stale.keys()].find((key) => stale.get(key)!.sandbox.id === oldest.id)!;
	assert.equal(String(stale.get(oldestKey)?.sandbox.status), 'RUNNING', 'the dashboard still lists it RUNNING: its list is stale');

	const targets = [...loaded.sandboxes.values()]
		.filter((row) => String(row.sandbox.status) === 'PAUSED')
		.slice(0, 2)
		.map((row) => row.key);
	assert.equal(targets.length, 2);
	// The plan the stale list makes: its first resume "pauses" the one the server already paused.
	const stalePlan = planResumes(stale, targets, 3);
	assert.deepEqual(stalePlan.steps[0]!.pauses, [oldestKey]);

	// The question, planned on the list read again: the first resume pauses nothing (2 run).
	const fresh = await controller.freshSandboxes!();
	assert.equal(String(fresh.get(oldestKey)?.sandbox.status), 'PAUSED');
	const freshPlan = planResumes(fresh, targets, 3);
	assert.deepEqual(freshPlan.steps[0]!.pauses, [], 'at 2 of 3 running the first resume pauses nothing');
	assert.equal(freshPlan.steps[1]!.pauses.length, 1, 'the second pauses the oldest running one');

	// Run it with the stale plan as "what the question said", so the re-plan shows.
	const reports: ResumeStepReport[] = [];
	const sentWhileRunning: number[] = [];
	await controller.resumeInSteps!(
		targets,
		new Map(stalePlan.steps.map((step) => [step.sandboxKey, step.pauses])),
		(report) => {
			reports.push(report);
			if (report.state === 'sent') sentWhileRunning.push(running(sim).length);
		},
		() => false,
	);
	t.diagnostic(JSON.stringify(reports));
	// At the simulator: the cap holds once everything settled, and the header's count agrees with it.
	await simulatorReaches(() => !sim.world.sandboxList().some((sandbox) => sandbox.transition), 'the simulator settled', 10_000).catch(() => undefined);
	assert.equal(running(sim).length, 3, `RUNNING at the simulator: ${running(sim).length} against a cap of 3`);
	const states = reports.map((report) => `${report.state}:${report.key.slice(0, 8)}`);
	assert.deepEqual(
		states,
		[`sent:${targets[0]!.slice(0, 8)}`, `done:${targets[0]!.slice(0, 8)}`, `sent:${targets[1]!.slice(0, 8)}`, `done:${targets[1]!.slice(0, 8)}`],
		'one step at a time: each resume is done before the next is sent',
	);
	const firstSent = reports[0] as Extract<ResumeStepReport, {state: 'sent'}>;
	assert.deepEqual(firstSent.planned, [oldestKey], 'it says the fresh list differs from what the question said');
	assert.deepEqual(firstSent.pauses, []);
	const secondDone = reports[3] as Extract<ResumeStepReport, {state: 'done'}>;
	assert.equal(secondDone.paused.length, 1, `what the server then did: it paused one (${JSON.stringify(secondDone)})`);
	for (const report of reports) if (report.state === 'done') assert.ok(report.running <= 3, `at most the cap running after a step: ${report.running}`);
	assert.ok(
		sentWhileRunning.every((count) => count <= 3),
		`each resume is sent with at most the cap running: ${sentWhileRunning.join(', ')}`,
	);

	const after = store.getSnapshot();
	const listed = [...after.sandboxes.values()].filter((row) => String(row.sandbox.status) === 'RUNNING').length;
	assert.equal(listed, 3, 'the dashboard counts what the server has');
	// The header counts conversations by their sandbox's status: after the steps, as the server has them
	// (the same ones, not only as many: the outside pause kept the stale count at 3 too).
	const atSimulator = () =>
		sim.world
			.conversationList()
			.filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING')
			.map((conversation) => normalizeId(conversation.id))
			.sort()
			.join(',');
	const inRows = (snapshot: DashboardSnapshot) =>
		[...snapshot.conversations.values()]
			.filter((row) => String(row.conversation.sandbox_status) === 'RUNNING')
			.map((row) => row.key)
			.sort()
			.join(',');
	const header = await waitForSnapshot(store, (snapshot) => inRows(snapshot) === atSimulator(), 'the rows\' sandbox statuses as the server has them', 10_000);
	assert.equal(countConversations(header).bySandbox.get('RUNNING'), atSimulator().split(',').length, 'the header counts them');
});

test('a step that would make the server pause a sandbox the question did not name is not sent: the plan stops to be asked again', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 11, tickMs: 0, conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 250, startTaskPhaseMs: 20}, {
		dashboard: {runningSandboxCap: 3, intervals: {refreshMs: 60_000, sandboxesMs: 60_000, sandboxesPendingMs: 150, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400}},
	});
	const loaded = await waitForSnapshot(store, (snapshot) => snapshot.conversations.size === 12 && snapshot.sandboxes.size > 0, 'the lists');
	const targets = [...loaded.sandboxes.values()]
		.filter((row) => String(row.sandbox.status) === 'PAUSED')
		.slice(0, 2)
		.map((row) => row.key);
	// A question that said nothing is paused (at 3 of 3 running the first resume pauses the oldest).
	const reports: ResumeStepReport[] = [];
	await controller.resumeInSteps!(targets, new Map(targets.map((key) => [key, []])), (report) => reports.push(report), () => false);
	assert.deepEqual(
		reports.map((report) => report.state),
		['stopped'],
		JSON.stringify(reports),
	);
	assert.match((reports[0] as {why: string}).why, /which the question did not name: nothing more is sent; ask again/);
	// Positive and negative at the simulator: nothing was resumed, the cap's three still run.
	assert.deepEqual(
		targets.map((key) => sim.world.sandboxList().find((sandbox) => normalizeId(sandbox.id) === key || sandbox.id === key)?.status),
		['PAUSED', 'PAUSED'],
	);
	assert.equal(running(sim).length, 3);
});
