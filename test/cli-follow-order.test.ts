import assert from 'node:assert/strict';
import {test} from 'node:test';
import {setStatus, stepConversation} from '../source/simulator/agent-runtime.js';
import {startSimulator} from '../source/simulator/server.js';
import {startCli} from './helpers/built-cli.js';
import {cliHome, runningLongRunner} from './helpers/cli-sim.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * `events <id> --follow --json` prints in server order even when a frame is lost and the REST
 * read that would recover it fails: the frames after the lost one arrive first, so a follower
 * that printed by arrival would print them before the lost event. Here one frame is cut short
 * (unreadable), every REST read answers 503 until the client has tried twice after the frames
 * went out, then the server recovers; the printed ids must be the server's list, in its order.
 */

const home = cliHome('follow-order');

const ids = (stdout: string) =>
	stdout
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => (JSON.parse(line) as {id: string}).id);

test('--follow --json: a lost frame whose recovery read fails still prints in server order, not by arrival', {timeout: 60_000}, async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 11, conversations: 6});
	t.after(() => sim.close());
	const conversation = runningLongRunner(sim);
	const serverIds = () => sim.world.events(conversation).map((event) => event.id);
	const step = () => assert.ok(stepConversation(sim.world, conversation), 'the long-runner steps');

	const cli = startCli(['events', conversation.id, '--follow', '--json', '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}});
	t.after(() => stopChild(cli.child));

	// Live: the socket is open and an event stepped now is printed (the first resync is over).
	await eventually(() => sim.openSockets() === 1 && ids(cli.stdout).length === serverIds().length, 'the history printed and the socket open', {timeoutMs: 20_000, detail: cli.detail});
	step();
	await eventually(() => ids(cli.stdout).join() === serverIds().join(), 'the marker event printed live', {timeoutMs: 20_000, detail: cli.detail});
	const printedBefore = ids(cli.stdout).length;

	// Every REST read fails from now; the next frame is unreadable (lost), the ones after it arrive.
	sim.faults.serverErrors({count: 100_000, status: 503});
	sim.faults.malformedFrames(1);
	const steppedAt = Date.now();
	const lostFrom = serverIds().length;
	step();
	const lost = serverIds().slice(lostFrom);
	step();
	step();
	const arrived = serverIds().slice(lostFrom + lost.length);
	assert.ok(lost.length > 0 && arrived.length > 0, 'a lost event and frames after it');

	// Proof the client had the frames in hand: two failed reads of the events after the frames went out
	// (the sends happened before this process could answer any request, so both come after them).
	const failedReads = () => sim.stats.log.filter((entry) => entry.path.includes('/events/search') && entry.status === 503 && entry.at >= steppedAt).length;
	await eventually(failedReads, 'two failed recovery reads', {timeoutMs: 30_000, until: (count) => count >= 2, detail: cli.detail});
	// The follower is still running and printed nothing newer than the lost event out of turn.
	assert.equal(cli.child.exitCode, null, 'still following');
	assert.deepEqual(ids(cli.stdout).slice(printedBefore).filter((id) => arrived.includes(id)), [], 'nothing after the lost event printed before it');

	sim.faults.reset();
	await eventually(() => ids(cli.stdout).length >= serverIds().length, 'the lost event recovered', {timeoutMs: 30_000, detail: cli.detail});
	setStatus(sim.world, conversation, 'finished');
	const code = await cli.exited;
	assert.equal(code, 0, cli.detail());
	assert.deepEqual(ids(cli.stdout), serverIds(), 'every event once, in server order');
	assert.match(cli.stderr, /conversation ended: finished/);
});
