import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import {StreamSupervisor, type StreamClient, type StreamSocket, type StreamStatus, type StreamSupervisorOptions} from '../source/state/stream-supervisor.js';
import type {EventSocketOptions} from '../source/wire/event-socket.js';
import {parseEvent, type WireEvent} from '../source/wire/schemas/events.js';
import {Secret} from '../source/wire/secret.js';
import {eventually} from './helpers/eventually.js';

/**
 * `events --follow --json` prints what the supervisor announces, as it is announced. In server
 * order ('server', what follow uses) that must be the server's list, oldest first, each event
 * once, whatever happens to the connections: drops before the socket is ready, while its resync
 * pages are in flight, after it; failed pages; lost (malformed) frames; live events in between.
 *
 * The supervisor runs for real; the server is a model it talks to through its two seams (the
 * client's `allEvents` and `openSocket`), so a test can put a drop exactly between two pages.
 * Each REST page waits until the script lets it through (or fails it).
 */

type Action = 'emit' | 'ready' | 'drop' | 'page' | 'fail-page' | 'malformed';
type Phase = 'before-ready' | 'during-resync' | 'after-resync';

const pageSize = 3;

function eventAt(n: number, executionStatus?: string): WireEvent {
	// 10 ms apart: the supervisor's 15 ms overlap re-reads the previous event on every resync.
	const ms = n * 10;
	const seconds = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
	const minutes = String(Math.floor(ms / 60_000)).padStart(2, '0');
	const fraction = String(ms % 1000).padStart(3, '0');
	const base = {id: `ev-${String(n).padStart(4, '0')}`, timestamp: `2026-01-01T00:${minutes}:${seconds}.${fraction}000`};
	if (executionStatus) return parseEvent({...base, kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'execution_status', value: executionStatus});
	return parseEvent({...base, kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `event ${n}`}]}});
}

type ScriptedSocket = StreamSocket & {options: EventSocketOptions; ready: boolean; ended: boolean; end(kind: 'closed' | 'client-closed'): void};

class ModelServer {
	readonly events: WireEvent[] = [];
	readonly pages: Array<{open: () => void; fail: () => void}> = [];
	socket: ScriptedSocket | null = null;

	/** The next event (a state update when `executionStatus` is given); its frame goes to a ready socket, or is lost. */
	emit(lost = false, executionStatus?: string): void {
		const event = eventAt(this.events.length, executionStatus);
		this.events.push(event);
		const socket = this.socket;
		if (!socket?.ready || socket.ended) return;
		if (lost) socket.options.handlers.onProblem?.({kind: 'malformed-frame', message: 'a frame that is not JSON', bytes: 10});
		else socket.options.handlers.onEvent(event);
	}

	/**
	 * The first frame: the server has subscribed us, and replays what the resend mode asks for.
	 * `status`: the first frame is a full_state saying it, as a real server's is.
	 */
	ready(status?: string): void {
		const socket = this.socket;
		if (!socket || socket.ready || socket.ended) return;
		socket.ready = true;
		socket.options.handlers.onReady?.();
		if (status) this.fullState(status);
		const resend = socket.options.resend ?? {mode: 'none'};
		if (resend.mode === 'none') return;
		for (const event of this.events) {
			if (resend.mode === 'since' && event.timestamp <= resend.afterTimestamp) continue;
			if (socket.ended) return;
			socket.options.handlers.onEvent(event);
		}
	}

	drop(): void {
		this.socket?.end('closed');
	}

	/** A socket-only frame, as a server sends on subscribe: the conversation's current status (never stored). */
	fullState(status: string): void {
		const socket = this.socket;
		if (!socket?.ready || socket.ended) return;
		const at = eventAt(this.events.length).timestamp;
		socket.options.handlers.onEvent(parseEvent({kind: 'ConversationStateUpdateEvent', id: `full-state-${at}`, timestamp: at, source: 'environment', key: 'full_state', value: {execution_status: status}}));
	}

	readonly openSocket = (options: EventSocketOptions): StreamSocket => {
		let resolveClosed!: () => void;
		const closed = new Promise<void>((resolve) => {
			resolveClosed = resolve;
		});
		const socket: ScriptedSocket = {
			options,
			ready: false,
			ended: false,
			closed,
			end: (kind) => {
				if (socket.ended) return;
				socket.ended = true;
				if (this.socket === socket) this.socket = null;
				const wasReady = socket.ready;
				queueMicrotask(() => {
					options.handlers.onEnd({kind, fatal: false, message: kind === 'closed' ? 'closed by the server (1006)' : 'closed by the client', wasReady});
					resolveClosed();
				});
			},
			close: () => {
				socket.end('client-closed');
				return closed;
			},
			terminate: () => {
				socket.end('client-closed');
				return closed;
			},
		};
		this.socket?.end('closed');
		this.socket = socket;
		return socket;
	};

	/** events/search, ascending from `timestampGte`, one gated page at a time. */
	client(): StreamClient {
		// The generator below cannot be an arrow function: these reach this model from it.
		const gate = (signal: AbortSignal | undefined) => this.#gate(signal);
		const events = () => this.events;
		return {
			async *allEvents({timestampGte, signal} = {}) {
				let after = -1;
				for (;;) {
					await gate(signal);
					const page = events().filter((event, index) => index > after && (timestampGte === undefined || event.timestamp >= timestampGte)).slice(0, pageSize);
					for (const event of page) {
						after = events().indexOf(event);
						yield event;
					}
					if (page.length < pageSize) return;
				}
			},
			socketUrl: () => 'ws://model.invalid/sockets/events/c1',
			sessionApiKey: new Secret('session-key'),
		};
	}

	#gate(signal: AbortSignal | undefined): Promise<void> {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) {
				reject(signal.reason);
				return;
			}
			const entry = {
				open: () => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				},
				fail: () => {
					signal?.removeEventListener('abort', onAbort);
					reject(new Error('the server answered 503'));
				},
			};
			const onAbort = () => {
				this.pages.splice(this.pages.indexOf(entry), 1);
				reject(signal?.reason);
			};
			signal?.addEventListener('abort', onAbort, {once: true});
			this.pages.push(entry);
		});
	}
}

/** Lets timers (zero-length backoff), immediates and microtasks run. */
async function settle(): Promise<void> {
	for (let round = 0; round < 3; round++) {
		await new Promise((resolve) => setTimeout(resolve, 0));
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
	}
}

function isPrefix(announced: readonly string[], server: readonly WireEvent[]): boolean {
	return announced.length <= server.length && announced.every((id, index) => server[index]!.id === id);
}

type RunResult = {ok: boolean; announced: string[]; server: string[]; phases: Phase[]; reason?: string};

/**
 * The supervisor on the model server, in server order with no backoff and a fixed jitter unless
 * `options` say otherwise; what it announces, by id, in `announced`.
 */
function supervise(server: ModelServer, options: Partial<StreamSupervisorOptions> = {}): {supervisor: StreamSupervisor; announced: string[]} {
	const announced: string[] = [];
	const supervisor = new StreamSupervisor({
		client: server.client(),
		openSocket: server.openSocket,
		order: 'server',
		backoff: {baseMs: 0, capMs: 0},
		resyncOverlapMs: 15,
		random: () => 0.5,
		onEvents: (events) => {
			for (const event of events) announced.push(event.id);
		},
		...options,
	});
	return {supervisor, announced};
}

/** The socket drops, and the next two are accepted and drop before their resync is read. */
async function dropThreeInARow(server: ModelServer): Promise<void> {
	server.drop();
	await settle();
	for (let round = 0; round < 2; round++) {
		server.ready();
		await settle();
		server.drop();
		await settle();
	}
}

/** Lets the supervisor act on what happened, then answers every page it asked for. */
async function settleAndAnswer(server: ModelServer): Promise<void> {
	await settle();
	await answerPages(server);
}

/** Opens (or fails) every page asked for, then the ones that asks for, up to five turns. */
async function answerPages(server: ModelServer, how: 'open' | 'fail' = 'open'): Promise<void> {
	for (let turn = 0; turn < 5 && server.pages.length > 0; turn++) {
		while (server.pages.length > 0) server.pages.shift()![how]();
		await settle();
	}
}

async function run(initial: number, actions: readonly Action[], order: StreamSupervisorOptions['order'], catchUpIntervalMs?: number): Promise<RunResult> {
	const server = new ModelServer();
	for (let n = 0; n < initial; n++) server.emit();
	const phases: Phase[] = [];
	// catchUpIntervalMs by default 2 s: the REST reads while no socket holds do not run within the script's steps.
	const {supervisor, announced} = supervise(server, {order, catchUpIntervalMs});
	const result = (reason?: string): RunResult => ({ok: reason === undefined, announced, server: server.events.map((event) => event.id), phases, reason});
	supervisor.start();
	try {
		await settle();
		for (const action of actions) {
			if (action === 'emit') server.emit();
			else if (action === 'malformed') server.emit(true);
			else if (action === 'ready') server.ready();
			else if (action === 'page') server.pages.shift()?.open();
			else if (action === 'fail-page') server.pages.shift()?.fail();
			else if (action === 'drop' && server.socket) {
				phases.push(!server.socket.ready ? 'before-ready' : server.pages.length > 0 ? 'during-resync' : 'after-resync');
				server.drop();
			}
			await settle();
			if (!isPrefix(announced, server.events)) return result(`after ${action}: announced out of server order or twice`);
		}
		// The faults stop: the socket comes up, every page is answered.
		for (let round = 0; round < 200 && !(supervisor.status.settled && announced.length === server.events.length); round++) {
			server.ready();
			while (server.pages.length > 0) server.pages.shift()!.open();
			await settle();
			if (!isPrefix(announced, server.events)) return result('while catching up: announced out of server order or twice');
		}
		if (announced.length !== server.events.length) return result(`caught up with ${announced.length} of ${server.events.length} events`);
		if (!supervisor.status.settled) return result('never settled');
		return result();
	} finally {
		await supervisor.close();
	}
}

const action = fc.constantFrom<Action>('emit', 'emit', 'emit', 'ready', 'ready', 'drop', 'drop', 'page', 'page', 'page', 'fail-page', 'malformed');

test('server order: under random drops, failed pages and lost frames, what is announced is always the server list, oldest first, each once', async () => {
	const seen = new Map<Phase, number>();
	await fc.assert(
		fc.asyncProperty(fc.integer({min: 0, max: 8}), fc.array(action, {minLength: 5, maxLength: 40}), async (initial, actions) => {
			const outcome = await run(initial, actions, 'server');
			for (const phase of outcome.phases) seen.set(phase, (seen.get(phase) ?? 0) + 1);
			assert.ok(outcome.ok, `${outcome.reason}\nannounced ${outcome.announced.join(' ')}\nserver    ${outcome.server.join(' ')}`);
			assert.deepEqual(outcome.announced, outcome.server);
		}),
		// A fixed seed: the phase coverage below is then a fact of this run, not a chance (unseeded,
		// 'after-resync' drops came out at 4 of the 10 needed in one CI run).
		{numRuns: 250, seed: 20261125},
	);
	// The drops did land in every phase (the property would be weak otherwise).
	for (const phase of ['before-ready', 'during-resync', 'after-resync'] as const) assert.ok((seen.get(phase) ?? 0) >= 10, `drops ${phase}: ${seen.get(phase) ?? 0}`);
});

test('server order with REST reads between every step while no socket holds: still the server list, oldest first, each once', async () => {
	await fc.assert(
		fc.asyncProperty(fc.integer({min: 0, max: 8}), fc.array(action, {minLength: 5, maxLength: 40}), async (initial, actions) => {
			const outcome = await run(initial, actions, 'server', 0);
			assert.ok(outcome.ok, `${outcome.reason}\nannounced ${outcome.announced.join(' ')}\nserver    ${outcome.server.join(' ')}`);
			assert.deepEqual(outcome.announced, outcome.server);
		}),
		{numRuns: 150, seed: 20261126},
	);
});

test('a drop while frames wait for the resync: server order keeps them for the next connection; arrival order announced them early', async () => {
	// History ev-0..1. The socket comes up; ev-2's frame is lost, ev-3's is held for the resync; the socket drops.
	const actions: Action[] = ['page', 'ready', 'malformed', 'emit', 'drop'];
	const strict = await run(2, actions, 'server');
	assert.ok(strict.ok, strict.reason);
	assert.deepEqual(strict.announced, ['ev-0000', 'ev-0001', 'ev-0002', 'ev-0003']);

	// What follow did before (the dashboard's arrival order): ev-3 went out when the connection ended, ahead of ev-2.
	const arrival = await run(2, actions, 'arrival');
	assert.equal(arrival.ok, false);
	assert.deepEqual(arrival.announced, ['ev-0000', 'ev-0001', 'ev-0003']);
});

test('a socket that drops while its resync page is in flight: the page still lands, and nothing waits for a socket to hold', async () => {
	const server = new ModelServer();
	for (let n = 0; n < 2; n++) server.emit();
	const {supervisor, announced} = supervise(server);
	supervisor.start();
	try {
		await settle();
		while (server.pages.length > 0) {
			server.pages.shift()!.open();
			await settle();
		}
		assert.deepEqual(announced, ['ev-0000', 'ev-0001'], 'the backfill');
		server.emit();
		server.emit();
		// The socket is accepted (ev-2 and ev-3 are replayed and held), the resync asks for its page, the socket drops.
		server.ready();
		await settle();
		assert.equal(server.pages.length, 1, 'the resync asked for its page');
		server.drop();
		await settle();
		assert.equal(server.pages.length, 1, 'the drop did not cancel the page in flight');
		while (server.pages.length > 0) {
			server.pages.shift()!.open();
			await settle();
		}
		assert.ok(!server.socket?.ready, 'no socket has held since');
		assert.deepEqual(announced, server.events.map((event) => event.id), 'the page landed: every event, in order');
	} finally {
		await supervisor.close();
	}
});

for (const order of ['server', 'arrival'] as const) test(`sockets that drop at every first frame (${order} order, ${order === 'server' ? 'events --follow, start --wait' : 'the dashboard'}): the history is read on over REST, in server order, and the end is seen without a live connection`, async () => {
	const server = new ModelServer();
	for (let n = 0; n < 5; n++) server.emit();
	const statuses: StreamStatus[] = [];
	const {supervisor, announced} = supervise(server, {order, catchUpIntervalMs: 0, onStatus: (status) => statuses.push(status)});
	supervisor.start();
	const ended = () => supervisor.status.settled && supervisor.status.executionStatus === 'finished';
	try {
		// 40 rounds: the agent writes an event; a socket is accepted and drops before its resync is read; every page asked for is answered.
		for (let round = 0; round < 40 && !(round > 30 && ended()); round++) {
			if (round < 30) server.emit();
			if (round === 30) server.emit(false, 'finished');
			server.ready();
			await settle();
			server.drop();
			await answerPages(server);
			assert.ok(isPrefix(announced, server.events), `round ${round}: announced out of server order or twice`);
		}
		assert.equal(statuses.some((status) => status.state === 'live'), false, 'no socket ever held');
		assert.deepEqual(announced, server.events.map((event) => event.id), 'every event, in server order, each once');
		assert.ok(ended(), `the end is seen: ${JSON.stringify(supervisor.status)}`);
	} finally {
		await supervisor.close();
	}
});

test('a socket that is accepted and never answers: the history is read on over REST meanwhile, and the end is seen', async () => {
	const server = new ModelServer();
	for (let n = 0; n < 5; n++) server.emit();
	// The default backoff and jitter.
	const {supervisor, announced} = supervise(server, {backoff: undefined, random: undefined, catchUpIntervalMs: 0});
	supervisor.start();
	try {
		// The socket opens and waits for a first frame that never comes (nothing here times it out).
		for (let round = 0; round < 20; round++) {
			if (round < 10) server.emit();
			if (round === 10) server.emit(false, 'finished');
			await answerPages(server);
			await settle();
		}
		assert.equal(supervisor.status.state, 'backfilling', 'the first connection is still waiting');
		assert.deepEqual(announced, server.events.map((event) => event.id), 'every event, in server order, each once');
		assert.ok(supervisor.status.settled && supervisor.status.executionStatus === 'finished', `the end is seen: ${JSON.stringify(supervisor.status)}`);
	} finally {
		await supervisor.close();
	}
});

test("a socket's full_state after an older REST read: the end is not seen until a read begun after it has brought every event", async () => {
	const server = new ModelServer();
	for (let n = 0; n < 3; n++) server.emit();
	// What a follower acts on: each status as it is reported (it ends on the first settled, finished one).
	const early: string[] = [];
	const {supervisor, announced} = supervise(server, {
		catchUpIntervalMs: 60_000,
		onStatus: (status) => {
			if (status.settled && status.executionStatus === 'finished' && announced.length < server.events.length) early.push(`${announced.length} of ${server.events.length}`);
		},
	});
	supervisor.start();
	try {
		// The backfill reads to the end: settled, nothing held.
		await settleAndAnswer(server);
		assert.ok(supervisor.status.settled, 'settled by the backfill');
		// The agent goes on and finishes; none of it has been read yet.
		for (let n = 0; n < 4; n++) server.emit();
		server.emit(false, 'finished');
		// A socket is accepted: its first frame says finished, then it replays what is new; it drops before its resync is read.
		server.ready('finished');
		await settle();
		assert.equal(supervisor.status.executionStatus, 'finished');
		assert.deepEqual(early, [], 'never reported ended while events were missing');
		server.drop();
		await settleAndAnswer(server);
		// A read begun after the frame (the next connection's) brings the rest: now it has ended.
		server.ready();
		await settle();
		await settleAndAnswer(server);
		assert.deepEqual(announced, server.events.map((event) => event.id));
		assert.deepEqual(early, []);
		assert.ok(supervisor.status.settled && supervisor.status.executionStatus === 'finished', JSON.stringify(supervisor.status));
	} finally {
		await supervisor.close();
	}
});

test('while no socket holds, the status says the history is read on over REST, and when each read reached the end; a holding socket ends it', async () => {
	const server = new ModelServer();
	for (let n = 0; n < 2; n++) server.emit();
	let clock = 1000;
	const statuses: StreamStatus[] = [];
	// Only connections that fail in a row start the REST reads here (at once after two).
	const {supervisor} = supervise(server, {order: 'arrival', catchUpIntervalMs: 60_000, now: () => clock, onStatus: (status) => statuses.push(status)});
	supervisor.start();
	try {
		await settleAndAnswer(server);
		server.ready();
		await settleAndAnswer(server);
		assert.equal(supervisor.status.state, 'live');
		assert.equal(supervisor.status.overRest, false, 'a holding socket is not "over REST"');
		// The socket drops; the next two are accepted and drop before their resync is read.
		await dropThreeInARow(server);
		await settleAndAnswer(server);
		await eventually(() => supervisor.status.overRest, 'the REST reads to begin', {detail: () => JSON.stringify(supervisor.status)});
		assert.equal(supervisor.status.state, 'reconnecting');
		// A read while the sockets still fail: the events arrive, and the status says when it reached the end.
		server.emit();
		clock = 5000;
		server.drop();
		await settleAndAnswer(server);
		await eventually(() => supervisor.status.restReadAt === 5000, 'a read that reached the end at 5000', {detail: () => JSON.stringify(supervisor.status)});
		assert.equal(supervisor.status.overRest, true);
		assert.equal(supervisor.status.events, server.events.length, 'the read brought the new event');
		// A socket holds again: live, no longer over REST.
		server.ready();
		await settleAndAnswer(server);
		await eventually(() => supervisor.status.state === 'live', 'live again', {detail: () => JSON.stringify(supervisor.status)});
		assert.equal(supervisor.status.overRest, false);
		assert.equal(supervisor.status.restReadAt, undefined);
		const liveAgain = statuses.length;
		// It drops, and so do the next two; this time the REST reads fail too: nothing is being read, so not "over REST".
		await dropThreeInARow(server);
		await answerPages(server, 'fail');
		await eventually(() => supervisor.status.state === 'reconnecting' && !supervisor.status.overRest && server.pages.length === 0, 'the failed reads to end "over REST"', {
			detail: () => JSON.stringify(supervisor.status),
		});
		assert.equal(supervisor.status.restReadAt, undefined);
		assert.ok(statuses.slice(liveAgain).some((status) => status.overRest), 'over REST while the read was under way');
	} finally {
		await supervisor.close();
	}
});
