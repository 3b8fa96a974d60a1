import {setTimeout as sleep} from 'node:timers/promises';
import {EventLog} from '../state/event-log.js';
import {forgetPrinted} from '../state/follow-window.js';
import {preferMemoryOverSpeed} from '../config/memory-profile.js';
import {historySource} from '../state/stored-history.js';
import {StreamSupervisor, type StreamStatus} from '../state/stream-supervisor.js';
import {AgentClient} from '../wire/agent-client.js';
import {isTransient, KeyRejectedError} from '../wire/errors.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {settleEvent, type WireEvent} from '../wire/schemas/events.js';
import {terminalExecutionStatuses, terminalSandboxStatuses} from '../wire/statuses.js';
import {eventMatches, type EventFilter} from '../state/server-event-filter.js';
import {defaultFollowDeadlineMs, formatDeadline} from './deadline.js';
import {UnavailableError} from './exit-codes.js';
import {invalidSummary, warnInvalid, warnProblem} from './invalid-warnings.js';
import {addSecret, note, type Io} from './io.js';
import type {Server} from './server.js';
import {onStopSignal} from './signals.js';
import {readStoredEvents} from './stored-history-read.js';

/**
 * Following one conversation until it ends (`events --follow`, `start --wait`).
 *
 * A conversation whose sandbox is not running first gets its stored history (the app server's
 * copy, commands/stored-history-read.ts); MISSING and ERROR end there (exit 0); a PAUSED one is
 * then waited for, checked every 10 s, and followed live if someone resumes it: the stream starts
 * on the log the stored history filled, so nothing is printed twice and nothing is skipped.
 *
 * The StreamSupervisor prints the history first (REST, every page), then live events from the
 * WebSocket, deduplicated, resyncing after any reconnect. The conversation has ended when:
 * - the stream is live (history complete) and its execution status, from the state-update
 *   events and the socket's first `full_state` frame, is finished, error or stuck; or
 * - its sandbox is ERROR or MISSING, which only the app server knows: it is polled every 5 s.
 * While polling, a new agent server URL (the sandbox was resumed elsewhere) restarts the stream on
 * the same event log, so nothing is printed twice.
 */

export type FollowEnd =
	| {reason: 'execution'; status: string}
	| {reason: 'sandbox'; status: string}
	| {reason: 'interrupted'; code: number};

export type FollowOptions = {
	server: Server;
	io: Io;
	conversation: AppConversation;
	filter: EventFilter;
	onEvent: (event: WireEvent) => void;
	/** Milliseconds between app-server polls (default 5000). */
	pollMs?: number;
	/** How long to wait for a STARTING sandbox to expose its agent server (default 5 min). */
	startingTimeoutMs?: number;
	/** Between two checks of a PAUSED sandbox; never below 10 s (the budget is shared with everything else). */
	pausedPollMs?: number;
	/**
	 * How long the event stream may go without contact (not live, no event) before following gives
	 * up with exit 5 and what it last saw (`--timeout`; default 3 min).
	 */
	deadlineMs?: number;
	/** How many of the newest events the follower keeps to know replays by (state/follow-window.ts). */
	keepEvents?: number;
	/** The log to fill (default: a new one); tests read how much it holds. */
	log?: EventLog;
};

export async function followConversation(options: FollowOptions): Promise<FollowEnd & {exitCode: number}> {
	const {io} = options;
	let end: FollowEnd;
	try {
		end = await follow(options);
	} finally {
		invalidSummary(io);
	}
	// 130 for ctrl-c, 143 for SIGTERM (signals.ts).
	if (end.reason === 'interrupted') return {...end, exitCode: end.code};
	note(io, end.reason === 'execution' ? `conversation ended: ${end.status}` : `conversation ended: its sandbox is ${end.status}`);
	return {...end, exitCode: 0};
}

async function follow(options: FollowOptions): Promise<FollowEnd> {
	const {server, io, filter, onEvent} = options;
	const pollMs = options.pollMs ?? 5000;
	// One log for the stored history and the live stream after it: the stream adds only what is new.
	const log = options.log ?? new EventLog();
	let conversation = options.conversation;
	// A STARTING sandbox is about to serve the whole history itself (and a conversation created a
	// moment ago may have nothing stored yet); any other one that is not running has only the copy.
	if (historySource(conversation) === 'stored' && conversation.sandbox_status !== 'STARTING') {
		// Nothing to stream from yet: what the app server kept, then wait for the sandbox to run.
		for (const event of await readStoredEvents(server, io, conversation, filter, 'TIMESTAMP', log)) onEvent(event);
	}
	conversation = await waitForAgentServer(options, conversation);
	if (terminalSandboxStatuses.includes(conversation.sandbox_status ?? 'MISSING')) {
		return {reason: 'sandbox', status: conversation.sandbox_status ?? 'MISSING'};
	}

	const stop = new AbortController();
	let finish!: (end: FollowEnd) => void;
	let fail!: (error: Error) => void;
	const ended = new Promise<FollowEnd>((resolve, reject) => {
		finish = (end) => {
			stop.abort();
			resolve(end);
		};
		fail = (error) => {
			stop.abort();
			reject(error);
		};
	});
	const offSignal = onStopSignal((code) => finish({reason: 'interrupted', code}));

	// A dead or stalled server ends the follow: contact is a live stream or an event.
	const deadlineMs = options.deadlineMs ?? defaultFollowDeadlineMs;
	let lastContact = Date.now();
	let lastStatus: StreamStatus | null = null;
	const watchdog = setInterval(() => {
		// A REST read that reached the end while the socket cannot hold (settled, not live) is contact too.
		if (lastStatus?.state === 'live' || lastStatus?.settled) lastContact = Date.now();
		if (Date.now() - lastContact < deadlineMs) return;
		const seen = lastStatus?.lastEventTimestamp ? `; the last event seen is from ${lastStatus.lastEventTimestamp} (server time)` : '; no event was seen';
		fail(new UnavailableError(`gave up after ${formatDeadline(deadlineMs)} without contact with the event stream (${lastStatus?.lastError ?? 'not connected'})${seen}; --timeout sets how long to wait`));
	}, Math.min(1000, deadlineMs / 4));
	stop.signal.addEventListener('abort', () => clearInterval(watchdog), {once: true});

	let reported: StreamStatus['state'] | null = null;
	let heapSized = false;
	const onStatus = (status: StreamStatus) => {
		// A follow can last hours, allocating per event and holding little: once live, with every
		// module loaded, the heap is sized for memory as the dashboard's is (memory-profile.ts says why then).
		if (status.state === 'live' && !heapSized) {
			heapSized = true;
			preferMemoryOverSpeed();
		}
		if (status.state === 'live' || status.lastEventAt !== lastStatus?.lastEventAt) lastContact = Date.now();
		lastStatus = status;
		if (status.state === 'failed') {
			fail(new UnavailableError(`cannot follow the conversation: ${status.lastError ?? 'the event stream failed'}`));
			return;
		}
		if (status.state === 'reconnecting' && reported !== 'reconnecting') {
			note(io, `event stream interrupted (${status.lastError ?? 'connection lost'}); reconnecting`);
		} else if (status.state === 'live' && reported === 'reconnecting') {
			note(io, status.gap ? `event stream back, but ${status.lastError ?? 'events may be missing'}` : 'event stream back; no events missed');
		}
		reported = status.state;
		const executionStatus = status.executionStatus;
		// Judged only when settled: every event up to now is printed, and the status is the current one.
		if (status.settled && executionStatus && terminalExecutionStatuses.includes(executionStatus)) {
			// onStatus runs just before the batch that caused it is printed: end after that.
			setImmediate(() => finish({reason: 'execution', status: executionStatus}));
		}
	};

	// Printed, then forgotten: only the newest events stay, to know a replay by.
	const handlers: StreamHandlers = {filter, onEvent, onStatus, forget: () => forgetPrinted(log, options.keepEvents)};
	let supervisor: StreamSupervisor | undefined;
	let poll: Promise<void> | undefined;
	try {
		supervisor = startStream(server, io, conversation, handlers, log);
		poll = (async () => {
			while (!stop.signal.aborted) {
				try {
					await sleep(pollMs, undefined, {signal: stop.signal});
					const [latest] = await lookUp(server, conversation.id);
					const status = latest?.sandbox_status ?? 'MISSING';
					if (terminalSandboxStatuses.includes(status)) {
						finish({reason: 'sandbox', status});
						return;
					}
					if (latest?.conversation_url && latest.conversation_url !== conversation.conversation_url) {
						// Resumed on another runtime: the same log, so nothing already printed comes again.
						addSecret(io, latest.session_api_key);
						await supervisor?.close();
						supervisor = startStream(server, io, latest, handlers, log);
					}
					if (latest) conversation = latest;
				} catch (error) {
					if (stop.signal.aborted) return;
					if (error instanceof KeyRejectedError) {
						fail(error);
						return;
					}
					// A failed poll is not the end of the conversation; the next one may work.
					if (!isTransient(error)) note(io, `could not check the conversation: ${(error as Error).message}`);
				}
			}
		})();
		return await ended;
	} finally {
		clearInterval(watchdog);
		offSignal();
		stop.abort();
		await supervisor?.close();
		await poll;
	}
}

type StreamHandlers = {filter: EventFilter; onEvent: (event: WireEvent) => void; onStatus: (status: StreamStatus) => void; forget: () => void};

function startStream(server: Server, io: Io, conversation: AppConversation, handlers: StreamHandlers, log: EventLog): StreamSupervisor {
	const client = AgentClient.fromConversation(conversation, server.baseUrl, server.transport ? {transport: server.transport} : {});
	return new StreamSupervisor({
		client,
		log,
		// Printed as announced: NDJSON readers rely on oldest-first, each event once.
		order: 'server',
		onEvents: (events) => {
			for (const logged of events) {
				const event = settleEvent(logged);
				if (eventMatches(event, handlers.filter)) handlers.onEvent(event);
			}
			handlers.forget();
		},
		onStatus: handlers.onStatus,
		// An event that does not match the API: once per kind (a loop of one bad shape is one line).
		// Any other problem: once per kind too, with a count at the end (invalidSummary).
		onProblem: (problem) => (problem.eventKind ? warnInvalid(io, problem.eventKind, problem.message, problem.eventId) : warnProblem(io, problem.kind, problem.message)),
	}).start();
}

/**
 * The agent server is reachable only while the sandbox runs. A STARTING sandbox (a conversation
 * that was just created or resumed) is waited for, up to `startingTimeoutMs`. Any other that is
 * not running (PAUSED, or a status this client does not know) is waited for as long as it takes,
 * checking at most every `pausedPollMs` (10 s): it runs again only when someone resumes it, and
 * we never do. ERROR and MISSING end the wait at once (the caller ends there).
 */
async function waitForAgentServer(options: FollowOptions, initial: AppConversation): Promise<AppConversation> {
	const {server, io} = options;
	let conversation = initial;
	const deadline = Date.now() + (options.startingTimeoutMs ?? 300_000);
	let said: string | null = null;
	for (;;) {
		const status = conversation.sandbox_status ?? 'MISSING';
		if (conversation.conversation_url || terminalSandboxStatuses.includes(status)) return conversation;
		let waitMs: number;
		if (status === 'STARTING') {
			if (Date.now() >= deadline) throw new UnavailableError(`conversation ${conversation.id} cannot be followed: its sandbox is still STARTING`);
			if (said !== status) note(io, 'waiting for the sandbox to start');
			waitMs = 1000;
		} else {
			waitMs = Math.max(options.pausedPollMs ?? 10_000, 10_000);
			const hint = status === 'PAUSED' && conversation.sandbox_id ? `; to go live now: agent-tui resume ${conversation.sandbox_id}` : '';
			if (said !== status) note(io, `the sandbox is ${status}: that was its stored history; waiting for it to run again (checking every ${Math.round(waitMs / 1000)} s${hint})`);
		}
		said = status;
		await sleep(waitMs);
		let latest: AppConversation | null | undefined;
		try {
			[latest] = await lookUp(server, conversation.id);
		} catch (error) {
			// A wait can last hours: a network blip or a 5xx is not the end of it; the next check may work.
			if (error instanceof KeyRejectedError || !isTransient(error)) throw error;
			continue;
		}
		conversation = latest ?? {...conversation, sandbox_status: 'MISSING'};
		addSecret(io, conversation.session_api_key);
	}
}

/** The conversation's current row, one request under the app server's budget. */
function lookUp(server: Server, id: string): Promise<Array<AppConversation | null>> {
	return server.pace(`follow:${id}`)((signal) => server.app.getConversations([id], {signal}));
}
