import {test} from 'node:test';
import assert from 'node:assert/strict';
import {AppClient} from '../source/wire/app-client.js';
import {shortId} from '../source/state/sandbox-rows.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {watchSimulator} from './helpers/sim-watch.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * The resume remedy on screen, with the real store against the simulator at its cap of 3 and a
 * stale sandbox list (issue 41, item 4): the question names what the server would pause as it is
 * now (not the sandbox another client already paused), y resumes one at a time, and each line
 * says what the server then did and how many run against the cap.
 */

test('the resume remedy at the cap: asked on the list read again, each step says what the server did, never more than the cap running', {timeout: 90_000}, async (t) => {
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 11, tickMs: 0, conversations: 12, maxRunningSandboxes: 3, sandboxTransitionMs: 250, startTaskPhaseMs: 20}, {
		dashboard: {runningSandboxCap: 3, intervals: {refreshMs: 60_000, sandboxesMs: 60_000, sandboxesPendingMs: 150, searchMs: 60_000, retryBaseMs: 100, retryCapMs: 400}},
	});
	const loaded = await waitForSnapshot(store, (snapshot) => snapshot.conversations.size === 12 && snapshot.sandboxes.size > 0, 'the lists');
	const running = () => sim.world.sandboxList().filter((sandbox) => sandbox.status === 'RUNNING');
	const simulatorReaches = watchSimulator(sim);
	// Another client pauses the oldest running sandbox: the dashboard's list still says RUNNING.
	const oldest = [...running()].sort((a, b) => a.createdAt - b.createdAt)[0]!;
	await new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0}).pauseSandbox(oldest.id);
	await simulatorReaches(() => oldest.status === 'PAUSED', 'the outside pause');
	const oldestKey = [...loaded.sandboxes.keys()].find((key) => loaded.sandboxes.get(key)!.sandbox.id === oldest.id)!;
	const paused = [...loaded.sandboxes.values()].filter((row) => String(row.sandbox.status) === 'PAUSED' && row.conversationKeys.length > 0).slice(0, 2);
	assert.equal(paused.length, 2);
	const conversationKeys = paused.map((row) => row.conversationKeys[0]!);

	const rendered = renderSized(
		<Dashboard store={store} controller={controller} onQuit={() => undefined} initialView={{overlay: {kind: 'remedy', remedy: 'resume', title: 'paused mid-run', conversationKeys}}} />,
		{columns: 120, rows: 30},
	);
	const question = await waitForFrame(rendered.lastFrame, (frame) => frame.includes('[y/n]'), {timeoutMs: 20_000});
	assert.match(question, /Resume 2 sandboxes of 2 conversations \(paused mid-run\)\? \[y\/n\]/);
	assert.doesNotMatch(question, new RegExp(shortId(oldestKey)), 'the sandbox the server already paused is not named as one the cap pauses');
	assert.match(question, /Planned on the sandbox list read just now/);
	rendered.stdin.write('y');
	const done = await waitForFrame(rendered.lastFrame, (frame) => /2 of 2 done/.test(frame), {timeoutMs: 30_000});
	const lines = done.split('\n').filter((line) => line.includes('✓'));
	assert.equal(lines.length, 2, done);
	for (const line of lines) assert.match(line, /running; the server paused (nothing else|sb-\w+) · 3 running \(cap 3\)/);
	assert.ok(lines.some((line) => /the server paused sb-/.test(line)), `one step made the server pause another: ${done}`);
	await simulatorReaches(() => !sim.world.sandboxList().some((sandbox) => sandbox.transition), 'the simulator settled', 10_000).catch(() => undefined);
	assert.equal(running().length, 3, 'never more than the cap running');
	rendered.unmount();
});
