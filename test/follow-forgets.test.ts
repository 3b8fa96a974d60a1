import assert from 'node:assert/strict';
import {test} from 'node:test';
import {followConversation} from '../source/commands/follow.js';
import type {Io} from '../source/commands/io.js';
import {startSimulator} from '../source/simulator/server.js';
import {EventLog} from '../source/state/event-log.js';
import {AppClient} from '../source/wire/app-client.js';
import {serverOnOwnTransport} from './helpers/command-server.js';
import {eventually} from './helpers/eventually.js';

/**
 * Issue 43.6: `events --follow --json` grew 104 -> 168 MB over 20,000 events: its log held every
 * event. A follower now prints and forgets, keeping the newest (state/follow-window.ts), and still
 * prints each event exactly once, across a reconnect that replays what it had.
 */

test('a follow keeps only its newest events, and prints each event once across a reconnect', {timeout: 90_000}, async (t) => {
	const sim = await startSimulator({port: 0, seed: 13, tickMs: 0, conversations: 4});
	const {app, server} = serverOnOwnTransport(t, sim, AppClient);
	let stderr = '';
	const io: Io = {
		stdout: {write: () => true} as unknown as Io['stdout'],
		stderr: {write: (chunk: string) => ((stderr += chunk), true)} as unknown as Io['stderr'],
		secrets: [sim.apiKey],
		debug: false,
	};
	const row = sim.world.conversationList().find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner')!;
	assert.ok(row, 'a running long-runner');
	const [conversation] = await app.getConversations([row.id]);
	const printed: string[] = [];
	const log = new EventLog();
	const following = followConversation({server, io, conversation: conversation!, filter: {}, onEvent: (event) => printed.push(event.id), keepEvents: 100, log});
	const until = (predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 60_000, pollMs: 20, detail: () => `${printed.length} printed, ${log.size} held; ${stderr}`});
	await until(() => sim.openSockets() > 0 && printed.length === sim.world.events(row).length, 'the history printed, the socket open');

	const text = 'x'.repeat(500);
	const append = (count: number) => {
		for (let index = 0; index < count; index++) {
			sim.world.appendEvent(row, {kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `#${index} ${text}`}], thinking_blocks: []}} as never);
		}
	};
	append(600);
	await until(() => printed.length === sim.world.events(row).length, '600 more printed');
	// Held: the newest 100, up to half as many again before the next trim; not all of them.
	assert.ok(log.size <= 150, `${log.size} events held`);
	assert.ok(log.trimmed > 0);

	// A reconnect resyncs from what the log was complete up to: events it replays are not printed again.
	sim.faults.dropSockets();
	append(300);
	await until(() => printed.length >= sim.world.events(row).length && /event stream back/.test(stderr), 'the stream back and 300 more printed');
	assert.equal(new Set(printed).size, printed.length, 'nothing printed twice');
	assert.deepEqual(printed, sim.world.events(row).map((event) => event.id), 'every event, in order');
	assert.ok(log.size <= 150, `${log.size} events held`);

	process.emit('SIGINT');
	assert.equal((await following).exitCode, 130);
});
