import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {DashboardSnapshot} from '../source/state/dashboard-types.js';
import {capEffect} from '../source/state/sandbox-rows.js';
import {capQuestion, planSandboxAction} from '../source/view/sandbox-question.js';
import {fixtureSnapshot, hexId, sandboxRow} from './helpers/dashboard-fixture.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The cap on running sandboxes, before it bites: the question names the sandboxes a resume (or a
 * start) makes the service pause and how many conversations they hold, counted as the service
 * counts (its pause_old_sandboxes: RUNNING ones only, oldest first; a STARTING one is neither
 * counted nor paused). Afterwards the sandbox list shows the pause as soon as the service made it,
 * even when that is after the resume was done, and a notice says when the service did otherwise.
 */

const rows = (...list: Array<ReturnType<typeof sandboxRow>>) => new Map(list.map((row) => [row.key, row]));

test('capEffect: RUNNING ones only, oldest first; a STARTING sandbox is neither counted nor named', () => {
	// The case: 3 running and one STARTING, the STARTING one the oldest of all.
	const four = rows(
		sandboxRow({id: 'starting', status: 'STARTING', createdMinutesAgo: 300, users: [hexId(9)]}),
		sandboxRow({id: 'old', status: 'RUNNING', createdMinutesAgo: 90, users: [hexId(1), hexId(2)]}),
		sandboxRow({id: 'mid', status: 'RUNNING', createdMinutesAgo: 30}),
		sandboxRow({id: 'new', status: 'RUNNING', createdMinutesAgo: 5, users: [hexId(3)]}),
		sandboxRow({id: 'zzz', status: 'PAUSED', createdMinutesAgo: 200, users: [hexId(4)]}),
	);
	assert.deepEqual(capEffect(four, 'zzz', 3), {victimKeys: ['old'], conversations: 2, running: 3, starting: 1, cap: 3, certain: true});
	assert.deepEqual(capEffect(four, 'zzz', null), {victimKeys: ['old'], conversations: 2, running: 3, starting: 1, cap: null, certain: false});
	assert.equal(capEffect(four, 'zzz', 4), null, 'under the cap nothing is paused');

	// 2 running and one STARTING at a cap of 3: the service counts 2, pauses nothing.
	const two = rows(
		sandboxRow({id: 'starting', status: 'STARTING', createdMinutesAgo: 300}),
		sandboxRow({id: 'old', status: 'RUNNING', createdMinutesAgo: 90}),
		sandboxRow({id: 'new', status: 'RUNNING', createdMinutesAgo: 5}),
		sandboxRow({id: 'zzz', status: 'PAUSED', createdMinutesAgo: 200}),
	);
	assert.equal(capEffect(two, 'zzz', 3), null);
	assert.doesNotMatch(JSON.stringify(planSandboxAction({...fixtureSnapshot(), sandboxes: two, runningSandboxCap: 3}, 'resume', 'zzz')), /pauses/);

	// Past the cap (a STARTING one came up meanwhile): as many of the oldest as leave cap - 1 running.
	const over = rows(
		sandboxRow({id: 'a', status: 'RUNNING', createdMinutesAgo: 90, users: [hexId(1)]}),
		sandboxRow({id: 'b', status: 'RUNNING', createdMinutesAgo: 60, users: [hexId(2), hexId(3)]}),
		sandboxRow({id: 'c', status: 'RUNNING', createdMinutesAgo: 30}),
		sandboxRow({id: 'd', status: 'RUNNING', createdMinutesAgo: 5}),
		sandboxRow({id: 'zzz', status: 'PAUSED', createdMinutesAgo: 200}),
	);
	assert.deepEqual(capEffect(over, 'zzz', 3)?.victimKeys, ['a', 'b']);
	assert.equal(capQuestion({...fixtureSnapshot(), sandboxes: over, runningSandboxCap: 3}, 'zzz').question, ' It pauses a and b (3 conversations).');
});

test('the questions: resume and start name the oldest RUNNING one and say the STARTING one is not counted', () => {
	const sandboxes = rows(
		sandboxRow({id: 'starting', status: 'STARTING', createdMinutesAgo: 300, users: [hexId(9)]}),
		sandboxRow({id: 'old', status: 'RUNNING', createdMinutesAgo: 90, users: [hexId(1), hexId(2)]}),
		sandboxRow({id: 'mid', status: 'RUNNING', createdMinutesAgo: 30}),
		sandboxRow({id: 'new', status: 'RUNNING', createdMinutesAgo: 5, users: [hexId(3)]}),
		sandboxRow({id: 'zzz', status: 'PAUSED', createdMinutesAgo: 200, users: [hexId(4)]}),
	);
	const snapshot = {...fixtureSnapshot(), sandboxes, runningSandboxCap: 3};
	const plan = planSandboxAction(snapshot, 'resume', 'zzz');
	assert.equal(plan.kind, 'ask');
	const request = (plan as {request: {question: string; detail: string}}).request;
	assert.equal(request.question, 'Resume sandbox zzz? It pauses old (2 conversations).');
	assert.match(request.detail, /^3 of 3 running, 1 starting \(not counted\): the service pauses the oldest · /);
	const unknown = planSandboxAction({...snapshot, runningSandboxCap: null}, 'resume', 'zzz');
	assert.match((unknown as {request: {detail: string}}).request.detail, /at the service's cap it pauses sandbox old \(2 conversations\), the oldest running, 1 starting \(not counted\)/);
	// The start form asks the same way (no sandbox of its own yet).
	assert.equal(capQuestion(snapshot, null).question, ' It pauses old (2 conversations).');
});

const waitFor = waitForSnapshot;

const status = (snapshot: DashboardSnapshot, key: string) => String(snapshot.sandboxes.get(key)?.sandbox.status);

/**
 * The simulator at a cap of 3 with one sandbox held STARTING. Its cap pause lands after the
 * resume is done (as the service's did), so only a dashboard that keeps watching the named
 * sandbox after the resume shows it: the full list comes once a minute here.
 */
async function setup(t: import('node:test').TestContext, cap: number | null) {
	const dashboard = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 12, maxRunningSandboxes: 3, startingSandboxes: 1, sandboxTransitionMs: 400, startTaskPhaseMs: 20}, {
		dashboard: {
			runningSandboxCap: cap,
			intervals: {refreshMs: 200, sandboxesMs: 60_000, sandboxesPendingMs: 500, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400},
		},
	});
	const loaded = await waitFor(dashboard.store, (snapshot) => snapshot.conversations.size === 12 && snapshot.sandboxes.size > 0, 'the lists');
	const byStatus = (wanted: string) => [...loaded.sandboxes.values()].filter((row) => status(loaded, row.key) === wanted);
	assert.equal(byStatus('RUNNING').length, 3, 'the seed fills the cap');
	assert.equal(byStatus('STARTING').length, 1, 'one sandbox STARTING');
	const starting = byStatus('STARTING')[0]!;
	const oldestRunning = byStatus('RUNNING').every((row) => Date.parse(String(row.sandbox.created_at)) > Date.parse(String(starting.sandbox.created_at)));
	assert.ok(oldestRunning, 'the STARTING sandbox is older than every running one (the old plan named it)');
	return {...dashboard, loaded};
}

test('resume at the cap with one STARTING: the question names the sandbox the service pauses; the list shows it at once', {timeout: 60_000}, async (t) => {
	const {store, controller, loaded} = await setup(t, 3);
	const paused = [...loaded.sandboxes.values()].find((row) => status(loaded, row.key) === 'PAUSED')!;
	const plan = planSandboxAction(loaded, 'resume', paused.key);
	const question = (plan as {request: {question: string}}).request.question;
	const victim = capEffect(loaded.sandboxes, paused.key, 3)!.victimKeys;
	assert.equal(victim.length, 1);
	assert.ok(question.includes(`It pauses ${victim[0]!.slice(0, 8)}`), question);
	await controller.resumeSandbox(paused.key);
	const resumed = await waitFor(store, (snapshot) => status(snapshot, paused.key) === 'RUNNING' && !snapshot.sandboxes.get(paused.key)?.pending, 'the resume done');
	assert.equal(status(resumed, victim[0]!), 'RUNNING', 'the service pauses it after the resume is done');
	const doneAt = Date.now();
	const after = await waitFor(store, (snapshot) => status(snapshot, victim[0]!) === 'PAUSED', 'the named sandbox PAUSED in the list', 10_000);
	t.diagnostic(`shown PAUSED ${Date.now() - doneAt} ms after the resume was done (the full list comes once a minute)`);
	assert.equal(after.sandboxes.get(victim[0]!)?.pausedByCap, true);
	const text = after.notice?.text ?? '';
	assert.match(text, /made the service pause sandbox/);
	assert.doesNotMatch(text, /question/, `the question was right: ${text}`);
	// Nothing else was paused, the STARTING one is untouched.
	const others = [...after.sandboxes.values()].filter((row) => row.key !== victim[0] && row.pausedByCap);
	assert.deepEqual(others, []);
});

test('a question the service proves wrong is said: it paused one the question did not name', {timeout: 60_000}, async (t) => {
	// The dashboard believes the cap is 4 (a stale setting): no pause predicted, the service pauses one.
	const {store, controller, loaded} = await setup(t, 4);
	const paused = [...loaded.sandboxes.values()].find((row) => status(loaded, row.key) === 'PAUSED')!;
	assert.equal(capEffect(loaded.sandboxes, paused.key, 4), null, 'the question predicts nothing');
	await controller.resumeSandbox(paused.key);
	const after = await waitFor(store, (snapshot) => /question expected no pause/.test(snapshot.notice?.text ?? ''), 'the notice that the question was wrong', 15_000);
	assert.match(after.notice!.text, /The service paused \S+; the question expected no pause\./);
});

test('a question the service proves wrong is said: the sandbox it named was not paused', {timeout: 60_000}, async (t) => {
	// The dashboard believes the cap is 2: it predicts two pauses, the service (cap 3) makes one.
	const {store, controller, loaded} = await setup(t, 2);
	const paused = [...loaded.sandboxes.values()].find((row) => status(loaded, row.key) === 'PAUSED')!;
	const predicted = capEffect(loaded.sandboxes, paused.key, 2)!.victimKeys;
	assert.equal(predicted.length, 2);
	await controller.resumeSandbox(paused.key);
	const after = await waitFor(store, (snapshot) => /which the question named: still running/.test(snapshot.notice?.text ?? ''), 'the notice about the spared sandbox', 50_000);
	assert.match(after.notice!.text, new RegExp(`did not make the service pause ${predicted[1]!.slice(0, 8)}, which the question named`));
	assert.equal(status(after, predicted[0]!), 'PAUSED', 'the oldest was paused as said');
	assert.equal(after.runningSandboxCap, 3, 'the cap is learned from what the service did');
});

test('start at the cap: the sandbox the start paused shows PAUSED soon after the conversation opens', {timeout: 60_000}, async (t) => {
	const {store, controller, loaded} = await setup(t, 3);
	const predicted = capEffect(loaded.sandboxes, null, 3)!;
	assert.ok(predicted?.certain, 'at the cap a start pauses one');
	await controller.startConversation({message: 'Add a health check'});
	await waitFor(store, (snapshot) => snapshot.start.state === 'ready', 'the start');
	const after = await waitFor(store, (snapshot) => status(snapshot, predicted.victimKeys[0]!) === 'PAUSED', 'the victim paused in the sandbox list', 10_000);
	assert.equal(after.sandboxes.get(predicted.victimKeys[0]!)?.pausedByCap, true);
	assert.match(after.notice?.text ?? '', /Starting a conversation made the service pause sandbox/);
});

test('resume with the cap unknown: the cap is learned from the pause, said once', {timeout: 60_000}, async (t) => {
	const {store, controller, loaded} = await setup(t, null);
	const paused = [...loaded.sandboxes.values()].find((row) => status(loaded, row.key) === 'PAUSED')!;
	const predicted = capEffect(loaded.sandboxes, paused.key, null)!;
	await controller.resumeSandbox(paused.key);
	await waitFor(store, (snapshot) => status(snapshot, predicted.victimKeys[0]!) === 'PAUSED', 'the victim paused', 10_000);
	const settled = await waitFor(store, (snapshot) => snapshot.runningSandboxCap === 3, 'the cap learned');
	const text = settled.notice?.text ?? '';
	assert.equal(text.split('made the service pause').length - 1, 1, `said once: ${text}`);
});

test('repeated notices are merged with a count, not repeated', async (t) => {
	const {store, controller} = await setup(t, null);
	const missing = 'f'.repeat(32);
	await controller.pauseSandbox(missing);
	await controller.pauseSandbox(missing);
	const snapshot = await waitFor(store, (s) => (s.notice?.text ?? '').includes('(×2)'), 'a counted notice');
	assert.equal(snapshot.notice!.text.split('No sandbox').length - 1, 1, snapshot.notice!.text);
});
