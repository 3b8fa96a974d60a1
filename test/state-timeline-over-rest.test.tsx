import assert from 'node:assert/strict';
import {test} from 'node:test';
import {TimelineHeader} from '../source/view/timeline/TimelineHeader.js';
import {renderSized, waitForFrame} from './helpers/ink.js';
import {dashboardOnSimulator} from './helpers/sim-dashboard.js';
import {waitForSnapshot} from './helpers/store-wait.js';

/**
 * An open timeline whose event socket cannot hold (a proxy that refuses WebSocket upgrades) while
 * REST works: the stream supervisor reads the history on over REST, so events keep coming. The
 * header must say that, not only "reconnecting" (nor "behind" since the drop while the reads keep
 * it current). The simulator does not tick: the agent moves when the test steps it.
 */

test('a timeline read over REST while its socket is refused says "reading over REST · reconnecting", gets the new events, and goes live when a socket holds', {timeout: 60_000}, async (t) => {
	// The store's clock jumps a minute when the agent moves, so "behind since" says which moment it is from.
	let offset = 0;
	const now = () => Date.now() + offset;
	const {sim, store, controller} = await dashboardOnSimulator(t, {seed: 7, tickMs: 0, conversations: 12}, {dashboard: {now}});
	const loaded = await waitForSnapshot(store, (s) => [...s.conversations.values()].some((row) => row.conversation.sandbox_status === 'RUNNING'), 'a running conversation');
	const row = [...loaded.conversations.values()].find((candidate) => candidate.conversation.sandbox_status === 'RUNNING')!;
	const conversation = sim.world.findConversation(row.key)!;
	controller.openTimeline(row.key);
	await waitForSnapshot(store, (s) => s.timeline?.stream.state === 'live' && s.timeline.events.length === sim.world.events(conversation).length, 'the live timeline');

	sim.faults.refuseSockets(true);
	sim.faults.dropSockets();
	const overRest = await waitForSnapshot(store, (s) => s.timeline?.stream.overRest === true, 'the timeline read over REST');
	assert.equal(overRest.timeline?.stream.state, 'reconnecting');
	offset = 60_000;
	const movedAt = now();
	sim.step(3);
	const total = sim.world.events(conversation).length;
	const caughtUp = await waitForSnapshot(store, (s) => s.timeline?.events.length === total, 'the new events, over REST');
	assert.notEqual(caughtUp.timeline?.stream.state, 'live', 'no socket held meanwhile');
	assert.equal(caughtUp.timeline?.stream.overRest, true);
	assert.equal(typeof caughtUp.timeline?.stream.restReadAt, 'number', 'when a read last reached the end');
	const behindSince = caughtUp.timeline?.lag?.behindSince ?? null;
	assert.ok(behindSince !== null && behindSince >= movedAt, `behind since the read that brought them (${behindSince}), not since the drop a minute of our clock before ${movedAt}`);

	// The header, as the timeline pane draws it from this snapshot.
	const header = (stream = caughtUp.timeline!.stream, lag = caughtUp.timeline!.lag) => (
		<TimelineHeader executionStatus="running" stream={stream} lag={lag} now={now()} gap={false} width={160} total={total} shown={total} descending={false} follow newSincePause={0} />
	);
	const view = renderSized(header(), {columns: 160, rows: 3});
	t.after(() => view.unmount());
	const frame = await waitForFrame(view.lastFrame, (text) => text.includes('events'));
	assert.match(frame, /reading over REST · reconnecting \(attempt \d+/);
	assert.doesNotMatch(frame, /behind/, 'current as of the last read, not behind since the drop');

	sim.faults.refuseSockets(false);
	const live = await waitForSnapshot(store, (s) => s.timeline?.stream.state === 'live', 'live again once a socket holds');
	assert.equal(live.timeline?.stream.overRest, undefined);
	view.instance.rerender(header(live.timeline!.stream, live.timeline!.lag));
	const back = await waitForFrame(view.lastFrame, (text) => !text.includes('reconnecting'));
	assert.doesNotMatch(back, /REST/);
	assert.match(back, /▸ running · live/);
});
