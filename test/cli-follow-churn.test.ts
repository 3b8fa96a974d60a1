import assert from 'node:assert/strict';
import {test} from 'node:test';
import {setStatus, stepConversation} from '../source/simulator/agent-runtime.js';
import {startSimulator} from '../source/simulator/server.js';
import {cliAgainst, cliHome, runningLongRunner} from './helpers/cli-sim.js';

/**
 * `events <id> --follow --json` is what pipelines read: oldest first, each event once. Here the
 * simulator drops every socket every 50 ms while one conversation writes about 200 events a
 * second; two followers run at once. Both must print exactly the server's list and exit 0 soon
 * after the conversation finishes (within 15 s).
 */

const home = cliHome('churn');

type Run = {code: number | null; stdout: string; stderr: string; exitedAt: number};

test('--follow --json under socket drops every 50 ms at ~200 events/s: two runs print every event once, in order, and exit 0 soon after the end', async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 11, conversations: 6});
	t.after(() => sim.close());
	const conversation = runningLongRunner(sim);

	const follow = (): Promise<Run> => cliAgainst(sim, home, ['events', conversation.id, '--follow', '--json'], {timeoutMs: 90_000});

	const runs = Promise.all([follow(), follow()]);
	// 200 events a second, however late the timer fires: steps until the count is where it should be.
	const startedAt = Date.now();
	const before = sim.world.events(conversation).length;
	const stepper = setInterval(() => {
		const due = before + Math.floor(((Date.now() - startedAt) * 200) / 1000);
		while (sim.world.events(conversation).length < due) stepConversation(sim.world, conversation);
	}, 10);
	const dropper = setInterval(() => sim.faults.dropSockets(), 50);
	t.after(() => {
		clearInterval(stepper);
		clearInterval(dropper);
	});
	await new Promise((resolve) => setTimeout(resolve, 6000));
	clearInterval(stepper);
	const rate = ((sim.world.events(conversation).length - before) * 1000) / (Date.now() - startedAt);
	setStatus(sim.world, conversation, 'finished');
	const endedAt = Date.now();
	// The drops go on after the end: the followers must still get there.
	const results = await runs;
	clearInterval(dropper);

	const expected = sim.world.events(conversation).map((event) => event.id);
	assert.ok(rate >= 180, `the stream ran at ${rate.toFixed(0)} events/s`);
	t.diagnostic(`${expected.length} events, ${rate.toFixed(0)}/s; exits ${results.map((run) => run.exitedAt - endedAt).join(' and ')} ms after the end; ${results.map((run) => (run.stderr.match(/reconnecting/g) ?? []).length).join(' and ')} reconnects reported`);
	for (const [index, run] of results.entries()) {
		assert.equal(run.code, 0, `run ${index + 1}: ${run.stderr.slice(-2000)}`);
		const printed = run.stdout
			.trimEnd()
			.split('\n')
			.map((line) => (JSON.parse(line) as {id: string}).id);
		assert.equal(new Set(printed).size, printed.length, `run ${index + 1}: no event printed twice`);
		assert.deepEqual(printed, expected, `run ${index + 1}: every event, in server order`);
		assert.ok(run.exitedAt - endedAt < 15_000, `run ${index + 1} exited ${run.exitedAt - endedAt} ms after the end`);
		assert.match(run.stderr, /reconnecting/, `run ${index + 1} did see the drops`);
		assert.match(run.stderr, /conversation ended: finished/);
	}
});
