import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {capEffect} from '../source/state/sandbox-rows.js';
import {capQuestion, planSandboxAction} from '../source/view/sandbox-question.js';
import {fixtureSnapshot, hexId, sandboxRow} from './helpers/dashboard-fixture.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The cap on running sandboxes, before it bites: the question names the sandbox a resume (or a
 * start) makes the service pause and how many conversations it holds; afterwards the sandbox list
 * shows it at once (no waiting for the minute's full refresh); notices say it once.
 */

test('capEffect: the oldest other running sandbox, certain at a known cap, nothing under it', () => {
	const snapshot = fixtureSnapshot();
	const rows = new Map([
		['old', sandboxRow({id: 'old', status: 'RUNNING', createdMinutesAgo: 90, users: [hexId(1), hexId(2)]})],
		['new', sandboxRow({id: 'new', status: 'RUNNING', createdMinutesAgo: 5, users: [hexId(3)]})],
		['mid', sandboxRow({id: 'mid', status: 'STARTING', createdMinutesAgo: 30})],
		['zzz', sandboxRow({id: 'zzz', status: 'PAUSED', createdMinutesAgo: 200, users: [hexId(4)]})],
	]);
	assert.deepEqual(capEffect(rows, 'zzz', 3), {victimKey: 'old', conversations: 2, running: 3, cap: 3, certain: true});
	assert.equal(capEffect(rows, 'zzz', 4), null, 'under the cap nothing is paused');
	assert.deepEqual(capEffect(rows, 'zzz', null), {victimKey: 'old', conversations: 2, running: 3, cap: null, certain: false});
	const at = capQuestion({...snapshot, sandboxes: rows, runningSandboxCap: 3}, 'zzz');
	assert.equal(at.question, ' It pauses old (2 conversations).');
	assert.equal(at.detail, '3 of 3 running: the service pauses the oldest · ');
	const plan = planSandboxAction({...snapshot, sandboxes: rows, runningSandboxCap: 3}, 'resume', 'zzz');
	assert.equal(plan.kind, 'ask');
	assert.match((plan as {request: {question: string}}).request.question, /^Resume sandbox zzz\? It pauses old \(2 conversations\)\.$/);
	const unknown = planSandboxAction({...snapshot, sandboxes: rows, runningSandboxCap: null}, 'resume', 'zzz');
	assert.match((unknown as {request: {detail: string}}).request.detail, /at the service's cap it pauses sandbox old \(2 conversations\), the oldest running/);
	const under = planSandboxAction({...snapshot, sandboxes: rows, runningSandboxCap: 10}, 'resume', 'zzz');
	assert.doesNotMatch(JSON.stringify(under), /pauses/);
});

const waitFor = waitForSnapshot;

const status = (snapshot: DashboardSnapshot, key: string) => String(snapshot.sandboxes.get(key)?.sandbox.status);

async function setup(t: import('node:test').TestContext, cap: number | null) {
	const dashboard = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 50, startTaskPhaseMs: 20}, {
		dashboard: {
			runningSandboxCap: cap,
			// The full sandbox list only once a minute, the watched ones every 30 s: only the refresh
			// right after the action can show the cap's pause within the test's few seconds.
			intervals: {refreshMs: 200, sandboxesMs: 60_000, sandboxesPendingMs: 30_000, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400},
		},
	});
	const loaded = await waitFor(dashboard.store, (snapshot) => snapshot.conversations.size === 12 && snapshot.sandboxes.size > 0, 'the lists');
	return {...dashboard, loaded};
}

test('resume at the cap: the oldest other running sandbox shows PAUSED right after, flagged, said once; the cap is learned', {timeout: 60_000}, async (t) => {
	const {store, controller, loaded} = await setup(t, null);
	const running = [...loaded.sandboxes.values()].filter((row) => status(loaded, row.key) === 'RUNNING');
	assert.equal(running.length, 3, 'the seed fills the cap');
	const paused = [...loaded.sandboxes.values()].find((row) => status(loaded, row.key) === 'PAUSED')!;
	const predicted = capEffect(loaded.sandboxes, paused.key, null)!;
	assert.ok(predicted, 'the question can name a sandbox');
	await controller.resumeSandbox(paused.key);
	const after = await waitFor(store, (snapshot) => status(snapshot, predicted.victimKey) === 'PAUSED', 'the victim paused in the sandbox list', 5000);
	assert.equal(after.sandboxes.get(predicted.victimKey)?.pausedByCap, true, 'the question named the sandbox the service paused');
	const settled = await waitFor(store, (snapshot) => snapshot.runningSandboxCap === 3, 'the cap learned');
	const text = settled.notice?.text ?? '';
	assert.match(text, /made the service pause sandbox/);
	const once = text.split('made the service pause').length - 1;
	assert.equal(once, 1, `said once: ${text}`);
});

test('start at the cap: the sandbox the start paused shows PAUSED as soon as the conversation opens', {timeout: 60_000}, async (t) => {
	const {store, controller, loaded} = await setup(t, 3);
	const predicted = capEffect(loaded.sandboxes, null, 3)!;
	assert.ok(predicted?.certain, 'at the cap a start pauses one');
	await controller.startConversation({message: 'Add a health check'});
	await waitFor(store, (snapshot) => snapshot.start.state === 'ready', 'the start');
	const after = await waitFor(store, (snapshot) => status(snapshot, predicted.victimKey) === 'PAUSED', 'the victim paused in the sandbox list', 5000);
	assert.equal(after.sandboxes.get(predicted.victimKey)?.pausedByCap, true);
	assert.match(after.notice?.text ?? '', /Starting a conversation made the service pause sandbox/);
});

test('repeated notices are merged with a count, not repeated', async (t) => {
	const {store, controller} = await setup(t, null);
	const missing = 'f'.repeat(32);
	await controller.pauseSandbox(missing);
	await controller.pauseSandbox(missing);
	const snapshot = await waitFor(store, (s) => (s.notice?.text ?? '').includes('(×2)'), 'a counted notice');
	assert.equal(snapshot.notice!.text.split('No sandbox').length - 1, 1, snapshot.notice!.text);
});
