import assert from 'node:assert/strict';
import {mkdtempSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {budgetFileName} from '../source/state/budget-ledger-file.js';
import {sharedBudgetOptions} from '../source/state/budget-sharing.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {dashboardOnSimulator, fastPolling} from './helpers/sim-dashboard.js';

/**
 * What the screen says of the request budget: with whom it is shared (from the live clients in
 * the shared ledger), and the wait a 429 imposes, counted down alike in the header and on the
 * notice line (one source: the connection's next retry).
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-budget-header-'));
after(() => rmSync(home, {recursive: true, force: true}));

test('a 429: the notice line counts down the same wait as the header, second for second', {timeout: 60_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {tickMs: 0, seed: 7, conversations: 5}, {polling: {...fastPolling, budget: {perSecond: 10, perMinute: 100}}});
	// The service's per-minute limiter at 3: the walk, the sandboxes and the specs, then 429s
	// asking to wait out the rest of the minute.
	sim.faults.requestsPerWindow({limit: 3, windowMs: 60_000});
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 160, rows: 30});
	t.after(() => rendered.unmount());
	const waits = (frame: string) => ({header: /\(retry (\w+)\)/.exec(frame)?.[1], notice: /rate limited[^\n]*?retry in (\w+)/.exec(frame)?.[1]});
	const frame = await waitForFrame(
		rendered.lastFrame,
		(text) => {
			const {header, notice} = waits(text);
			return header !== undefined && header === notice;
		},
		{timeoutMs: 20_000},
	).catch((error: unknown) => {
		throw new Error(`${String(error)}\n${JSON.stringify(waits(rendered.lastFrame() ?? ''))}`);
	});
	const {header} = waits(frame);
	// Positive: it is the 429's wait (tens of seconds), not a poll's short backoff.
	assert.match(header!, /^[1-5]\ds$/, frame);
	// And it moves: a second later both say one second less.
	const next = `${Number.parseInt(header!, 10) - 1}s`;
	await waitForFrame(rendered.lastFrame, (text) => waits(text).header === next && waits(text).notice === next, {timeoutMs: 5000});
});

test('the header says the budget is shared, and with how many live clients, from the shared ledger', {timeout: 60_000}, async (t) => {
	const env = {XDG_STATE_HOME: join(home, 'state')};
	let keyOfSim = '';
	const {sim, store, controller} = await dashboardOnSimulator(
		t,
		{tickMs: 0, seed: 7, conversations: 5},
		{
			dashboard: (simulator) => {
				keyOfSim = simulator.apiKey;
				// Another live client of this server and key: this test's parent process, in the ledger before we open it.
				const dir = join(env.XDG_STATE_HOME, 'agent-tui', 'budget');
				mkdirSync(dir, {recursive: true, mode: 0o700});
				writeFileSync(join(dir, budgetFileName(new URL(simulator.baseUrl).origin, simulator.apiKey)), JSON.stringify({sent: [], paceAt: 0, backoffUntil: 0, learned: null, clients: [{pid: process.ppid, beat: Date.now()}]}), {mode: 0o600});
				return {budget: sharedBudgetOptions({baseUrl: simulator.baseUrl, key: simulator.apiKey}, {perSecond: 200, perMinute: 10_000}, {env})};
			},
		},
	);
	assert.ok(keyOfSim && sim.apiKey === keyOfSim);
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 200, rows: 30});
	t.after(() => rendered.unmount());
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('budget shared ×2'), {timeoutMs: 20_000});
	assert.match(frame.split('\n')[0] ?? '', /budget shared ×2/, 'in the header');
});

test('alone on its key, the header says nothing of sharing', {timeout: 60_000}, async (t) => {
	const env = {XDG_STATE_HOME: join(home, 'state-alone')};
	const {store, controller} = await dashboardOnSimulator(t, {tickMs: 0, seed: 7, conversations: 5}, {dashboard: (simulator) => ({budget: sharedBudgetOptions({baseUrl: simulator.baseUrl, key: simulator.apiKey}, {perSecond: 200, perMinute: 10_000}, {env})})});
	const rendered = renderSized(<Dashboard store={store} controller={controller} onQuit={() => undefined} />, {columns: 200, rows: 30});
	t.after(() => rendered.unmount());
	// Positive: the list is there (the header is drawn with the data).
	const frame = await waitForFrame(rendered.lastFrame, (text) => /● live|◐ polling/.test(text) && /Conversations \(5\)/.test(text), {timeoutMs: 20_000});
	assert.doesNotMatch(frame, /budget shared/);
});
