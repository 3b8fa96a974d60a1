import {test} from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import type {DashboardSnapshot, SandboxRow} from '../source/state/dashboard-types.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {confirmationMatches, planBulk} from '../source/state/bulk-plan.js';
import {fixtureSnapshot, fixtureStore, fleetSeeds, hexId, recordingController, sandboxRow} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

function mount(snapshot: DashboardSnapshot = fixtureSnapshot(), size = {columns: 80, rows: 24}) {
	const store = fixtureStore(snapshot);
	const controller = recordingController();
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, size);
	return {store, controller, rendered};
}

function assertFits(frame: string, columns: number) {
	for (const line of frame.split('\n')) assert.ok(stringWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
}

function withSandbox(snapshot: DashboardSnapshot, key: string, change: Partial<SandboxRow> & {status?: string}): Map<string, SandboxRow> {
	const sandboxes = new Map(snapshot.sandboxes);
	const row = sandboxes.get(key);
	assert.ok(row, `no sandbox ${key}`);
	const {status, ...rest} = change;
	const sandbox = status ? sandboxRow({id: key, status, users: row.conversationKeys}).sandbox : row.sandbox;
	sandboxes.set(key, {...row, ...rest, sandbox});
	return sandboxes;
}

test('planBulk: each sandbox once, only those the action applies to, the rest counted as skipped', () => {
	const snapshot = fixtureSnapshot();
	const all = [...snapshot.conversations.keys()];
	const pause = planBulk(snapshot, 'pause', all);
	assert.equal(pause.sandboxKeys.length, 7);
	assert.equal(pause.skipped, 1, 'the paused sandbox is not paused again');
	const resume = planBulk(snapshot, 'resume', all);
	assert.deepEqual(resume.sandboxKeys, ['sb-0006']);
	const busy = {...snapshot, sandboxes: withSandbox(snapshot, 'sb-0001', {pending: {kind: 'pausing', startedAt: 0}})};
	assert.ok(!planBulk(busy, 'pause', all).sandboxKeys.includes('sb-0001'), 'an action in flight is not asked twice');
	assert.ok(confirmationMatches(' 7 ', 'pause', 7));
	assert.ok(confirmationMatches('PAUSE', 'pause', 7));
	assert.ok(!confirmationMatches('y', 'pause', 7));
	assert.ok(!confirmationMatches('resume', 'pause', 7));
});

/** The fleet with conversations sharing sandboxes (as sub-agents and grouped workspaces do): 1 and 8 in one, 2 and 5 in another. */
function sharedSnapshot(): DashboardSnapshot {
	const sandboxOf: Record<string, string> = {[hexId(1)]: 'sb-shared-a', [hexId(8)]: 'sb-shared-a', [hexId(2)]: 'sb-shared-b', [hexId(5)]: 'sb-shared-b'};
	const seeds = fleetSeeds().map((seed) => (sandboxOf[seed.id] ? {...seed, sandboxId: sandboxOf[seed.id]} : seed));
	const snapshot = fixtureSnapshot({}, seeds);
	const sandboxes = new Map<string, SandboxRow>();
	for (const row of snapshot.conversations.values()) {
		const id = String(row.conversation.sandbox_id);
		const users = [...(sandboxes.get(id)?.conversationKeys ?? []), row.key];
		sandboxes.set(id, sandboxRow({id, status: String(row.conversation.sandbox_status), users}));
	}
	return {...snapshot, sandboxes};
}

test('planBulk: conversations that share a sandbox put it in the plan once', () => {
	const snapshot = sharedSnapshot();
	const all = [...snapshot.conversations.keys()];
	const pause = planBulk(snapshot, 'pause', all);
	assert.equal(new Set(pause.sandboxKeys).size, pause.sandboxKeys.length, `each sandbox once: ${pause.sandboxKeys.join(' ')}`);
	// 8 conversations in 6 sandboxes, one of them paused.
	assert.equal(pause.sandboxKeys.length, 5);
	assert.equal(pause.skipped, 1);
	assert.equal(pause.sandboxKeys.filter((key) => key === 'sb-shared-a').length, 1);
	assert.equal(pause.sandboxKeys.filter((key) => key === 'sb-shared-b').length, 1);
});

test('P over conversations that share sandboxes: asks for each sandbox once and pauses it once', async () => {
	const {controller, rendered} = mount(sharedSnapshot(), {columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
	const frame = await press(rendered, 'P', (text) => text.includes('Pause 5 sandboxes of the conversations shown'));
	assert.equal(frame.match(/sb-shared-a/g)?.length, 1, 'the shared sandbox is listed once');
	await press(rendered, '5', (text) => text.includes('confirm: 5'));
	await press(rendered, keys.enter, (text) => text.includes('0 of 5 done'));
	const paused = controller.calls.filter((call) => call.method === 'pauseSandbox').map((call) => call.args[0]);
	assert.equal(paused.length, 5);
	assert.equal(new Set(paused).size, 5, `each sandbox paused once: ${paused.join(' ')}`);
	rendered.unmount();
});

test('P over a filter: shows how many and which, needs the typed count, then reports each result', async () => {
	const {store, controller, rendered} = mount();
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
	await press(rendered, '/', (frame) => frame.includes('of 8'));
	await press(rendered, 'acme/web', (frame) => frame.includes('2 of 8'));
	await press(rendered, keys.enter, (frame) => frame.includes('esc clears'));
	let frame = await press(rendered, 'P', (text) => text.includes('Pause 2 sandboxes of the conversations shown'));
	assertFits(frame, 80);
	assert.match(frame, /sb-0002 +running +Upgrade React/);
	assert.match(frame, /sb-0008 +running +Bump dependencies/);
	assert.doesNotMatch(frame, /sb-0001/, 'a conversation outside the filter is not touched');

	// A bare enter, or the wrong word, does nothing. Keys are read in order: the next key's echo
	// proves the enter before it was read (and left the question open).
	rendered.stdin.write(keys.enter);
	await press(rendered, 'yes', (text) => text.includes('confirm: yes'));
	rendered.stdin.write(keys.enter);
	await press(rendered, '\u007F', (text) => text.includes('confirm: ye\n'));
	assert.equal(controller.calls.filter((call) => call.method === 'pauseSandbox').length, 0);

	for (const left of ['y', '']) await press(rendered, '\u007F', (text) => text.includes(`confirm: ${left}\n`) || text.includes(`confirm:${left ? ` ${left}` : ''}\n`));
	await press(rendered, '2', (text) => text.includes('confirm: 2'));
	await press(rendered, keys.enter, (text) => text.includes('0 of 2 done'));
	assert.deepEqual(
		controller.calls.filter((call) => call.method === 'pauseSandbox').map((call) => call.args[0]),
		['sb-0002', 'sb-0008'],
	);

	// Results come from the live rows: one paused, one refused by the server.
	store.update((current) => ({sandboxes: withSandbox(current, 'sb-0002', {status: 'PAUSED'})}));
	store.update((current) => ({sandboxes: withSandbox(current, 'sb-0008', {pending: {kind: 'pausing', startedAt: 0, error: 'HTTP 409: busy'}})}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('2 of 2 done · 1 failed'));
	assert.match(frame, /✓ sb-0002 +paused/);
	assert.match(frame, /✗ sb-0008 +failed: HTTP 409: busy/);
	await press(rendered, keys.escape, (text) => !text.includes('of 2 done') && text.includes('Upgrade React'));
	rendered.unmount();
});

test('R with a long list scrolls; esc cancels without acting; the typed word works too', async () => {
	const seeds = Array.from({length: 40}, (_, index) => ({id: hexId(100 + index), title: `Paused job ${index}`, execution: null, sandbox: 'PAUSED'}));
	const {controller, rendered} = mount(fixtureSnapshot({}, seeds));
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Paused job'));
	let frame = await press(rendered, 'R', (text) => text.includes('Resume 40 sandboxes'));
	assertFits(frame, 80);
	assert.match(frame, /1-\d+ of 40/);
	assert.doesNotMatch(frame, /Paused job 39\b/);
	for (let i = 0; i < 40; i++) rendered.stdin.write(keys.down);
	frame = await waitForFrame(rendered.lastFrame, (text) => /Paused job 39\b/.test(text));
	assert.match(frame, /-40 of 40/);
	await press(rendered, keys.escape, (text) => !text.includes('Resume 40'));
	assert.equal(controller.calls.filter((call) => call.method === 'resumeSandbox').length, 0);

	await press(rendered, 'R', (text) => text.includes('Resume 40 sandboxes'));
	await press(rendered, 'resume', (text) => text.includes('confirm: resume'));
	await press(rendered, keys.enter, (text) => text.includes('of 40 done'));
	assert.equal(controller.calls.filter((call) => call.method === 'resumeSandbox').length, 40);
	rendered.unmount();
});

test('P before the sandbox list has arrived says it is loading, then plans over the list once it is there', async () => {
	const full = fixtureSnapshot();
	const {store, rendered} = mount({...full, sandboxes: new Map(), sandboxesListed: false});
	await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Upgrade React'));
	let frame = await press(rendered, 'P', (text) => text.includes('The sandbox list is still loading'));
	assert.doesNotMatch(frame, /Nothing to pause|skipped/, 'an unloaded list is not "nothing running"');
	store.update(() => ({sandboxes: full.sandboxes, sandboxesListed: true}));
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Pause 7 sandboxes of the conversations shown'));
	assert.match(frame, /1 skipped/);
	// Planned once: a later change of the list does not move what the user is confirming.
	store.update(() => ({sandboxes: withSandbox(full, 'sb-0001', {status: 'PAUSED'})}));
	// The change is drawn (the row says paused), the plan is not redone.
	frame = await waitForFrame(rendered.lastFrame, (text) => /sb-0001 +paused/.test(text));
	assert.match(frame, /Pause 7 sandboxes/);
});
