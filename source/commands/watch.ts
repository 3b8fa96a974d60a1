import {createDashboard} from '../state/dashboard-store.js';
import {SnoozeBook} from '../state/snooze-book.js';
import {withSnoozes} from '../state/snoozed-dashboard.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {type CauseTransition, CauseTransitions} from '../state/cause-transitions.js';
import {alertCommand} from '../state/alert-command.js';
import {awaitsCause, TransitionDetector, type StatusTransition, withErrorCause} from '../state/status-transitions.js';
import {causeLong} from '../format/error-cause.js';
import type {ErrorCauseJson} from '../wire/error-classification.js';
import {KeyRejectedError, rateLimitedWords} from '../wire/errors.js';
import {followDeadline, formatDeadline} from './deadline.js';
import {UnavailableError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {SandboxReasonWait} from './sandbox-reason-wait.js';
import type {Server} from './server.js';
import {onStopSignal} from './signals.js';
import {parseStatusFilter, type StatusFilter, unknownStatusWarning} from './status-filter.js';

/**
 * `agent-tui watch [--status S[,S...]] [--json]`: one line per status transition of any
 * conversation, for scripts and cron, until interrupted (130 on ctrl-c, 143 on SIGTERM). It runs
 * the dashboard's own store (batched look-ups under the request budget, backoff on failures),
 * without the view, and reports each change once (state/status-transitions.ts). `--status` keeps
 * the transitions *into* one of the given statuses. A rejected key ends it with exit 3; a server
 * that gives no answer for `--timeout` (default 3 min, as `events --follow`) with exit 5.
 */
export async function runWatch(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const filter = parseStatusFilter(flags.status);
	const warning = unknownStatusWarning(filter);
	if (warning) note(io, warning);
	// The server's budget, which also counts the client's own retries: one account of the requests sent.
	// Snoozed conversations (agent-tui snooze, s in the dashboard) leave the stream as they leave the alerts.
	const {store, controller} = withSnoozes(createDashboard({appClient: server.app, appBaseUrl: server.baseUrl, serverLabel: server.label, demo: server.demo, secrets: io.secrets, budget: server.budget, ...(server.transport ? {transport: server.transport} : {}), ...(server.intervals ? {intervals: server.intervals} : {})}), SnoozeBook.forServer(server.demo ? 'demo:' : server.baseUrl));
	const detector = new TransitionDetector();
	const causes = new CauseTransitions();
	// --alert-command: each change of a cause, the same object --json prints, on the command's stdin.
	const alerts = flags.alertCommand?.trim() ? alertCommand<CauseTransition>({command: flags.alertCommand, log: (_origin, text) => note(io, `alert command: ${text}`)}) : null;
	let finish!: (code: number) => void;
	let fail!: (error: Error) => void;
	const ended = new Promise<number>((resolve, reject) => {
		finish = resolve;
		fail = reject;
	});
	// Given up on when the server has not answered for the deadline: from the start, or from when
	// its answers stopped. A healthy server that is asked nothing for a while (an empty account
	// polls a page a minute) is not a dead one: time counts only while nothing was ever read or
	// the last request failed.
	const deadlineMs = followDeadline(flags);
	let lastContact = Date.now();
	let lastSuccessAt: number | null = null;
	let lastSuccessSeenAt: number | null = null;
	const watchdog = setInterval(() => {
		const {connection} = store.getSnapshot();
		const now = Date.now();
		if (connection.lastSuccessAt !== lastSuccessAt) {
			lastSuccessAt = connection.lastSuccessAt;
			lastSuccessSeenAt = now;
		}
		// A 429 is an answer too: the server is there, asking to wait.
		const answering = connection.lastError === null || connection.lastError.includes(rateLimitedWords);
		if (lastSuccessAt !== null && answering) lastContact = now;
		if (now - lastContact < deadlineMs) return;
		const seen = lastSuccessSeenAt === null ? 'none was read since it started' : `the last one was read ${formatDeadline(now - lastSuccessSeenAt)} ago`;
		fail(new UnavailableError(`gave up after ${formatDeadline(deadlineMs)} without an answer from the server (${connection.lastError ?? 'no answer'}); ${seen}; --timeout sets how long to wait`));
	}, Math.min(1000, deadlineMs / 4));
	let keyRejected: string | null = null;
	let loaded = false;
	let lastProblem: string | null = null;
	let lastUnreadable = 0;

	const onSnapshot = (snapshot: DashboardSnapshot) => {
		const {connection} = snapshot;
		if (connection.keyRejected) {
			keyRejected = connection.lastError ?? 'the server rejected the API key';
			finish(3);
			return;
		}
		if (connection.lastError && connection.lastError !== lastProblem) note(io, `cannot refresh: ${connection.lastError}; retrying`);
		// Rows that cannot be read are not watched: said, each time their number changes.
		const unreadable = snapshot.invalidItems;
		if (unreadable !== lastUnreadable && unreadable > 0) note(io, `warning: ${unreadable} conversation row${unreadable === 1 ? '' : 's'} the server sent could not be read (${unreadable === 1 ? 'it does' : 'they do'} not match the API) and ${unreadable === 1 ? 'is' : 'are'} not watched`);
		lastUnreadable = unreadable;
		lastProblem = connection.lastError;
		// The first answer with every page is the baseline; nothing is printed for it.
		if (!loaded && connection.lastSuccessAt === null) return;
		if (!loaded) note(io, `watching ${snapshot.conversations.size} conversations; one line per status change (ctrl-c ends)`);
		loaded = true;
		const seen = detector.observe(snapshot.conversations.values()).filter((transition) => !filter || matches(transition, filter));
		for (const transition of reasons.take(seen, snapshot, Date.now())) {
			// An agent that went into error is reported with why: its cause is one request away.
			if (awaitsCause(transition)) held.push({transition, since: Date.now()});
			else print(transition);
		}
		release(snapshot, false);
		// Every change of a row's cause (waiting, error, stuck, repeating, quiet, spending, cleared…), with
		// the server and its clock's time; not under a status filter, which keeps status changes only.
		const context = {server: snapshot.serverLabel, now: Date.now(), clockOffsetMs: connection.clockOffsetMs};
		for (const transition of causes.observe(snapshot.conversations.values(), context)) {
			if (filter) continue;
			print(transition);
			alerts?.run(transition);
		}
		// A held transition goes out after its wait even when nothing else changes.
		if (reasons.holding || held.length > 0 || causes.holding) recheck ??= setInterval(() => onSnapshot(store.getSnapshot()), 1000);
		else if (recheck) {
			clearInterval(recheck);
			recheck = undefined;
		}
	};
	const print = (transition: StatusTransition | CauseTransition) => (flags.json ? printLine(io, toJson(transition, io.secrets)) : printText(io, describe(transition)));
	/** Transitions into error waiting for their cause (at most `causeWaitMs`), in the order seen. */
	const held: Array<{transition: StatusTransition; since: number}> = [];
	const release = (snapshot: DashboardSnapshot, all: boolean) => {
		while (held.length > 0) {
			const {transition, since} = held[0]!;
			const row = snapshot.conversations.get(transition.id);
			if (row?.errorCause === undefined && !all && Date.now() - since < causeWaitMs) break;
			held.shift();
			print(withErrorCause(transition, row));
		}
	};
	const reasons = new SandboxReasonWait();
	let recheck: ReturnType<typeof setInterval> | undefined;
	const unsubscribe = store.subscribe(() => onSnapshot(store.getSnapshot()));
	const offSignal = onStopSignal((code) => finish(code));
	try {
		const code = await ended;
		if (keyRejected) throw new KeyRejectedError(keyRejected, 401);
		return code;
	} finally {
		// Ending (ctrl-c, a refused key): what is held for a reason or a cause goes out as known now.
		const last = store.getSnapshot();
		release(last, true);
		for (const transition of reasons.flush(last)) print(awaitsCause(transition) ? withErrorCause(transition, last.conversations.get(transition.id)) : transition);
		if (!filter && causes.holding) {
			for (const transition of causes.observe(last.conversations.values(), {server: last.serverLabel, now: Date.now(), clockOffsetMs: last.connection.clockOffsetMs}, true)) {
				print(transition);
				alerts?.run(transition);
			}
		}
		offSignal();
		clearInterval(watchdog);
		unsubscribe();
		if (recheck) clearInterval(recheck);
		alerts?.close();
		await controller.close();
	}
}

function matches(transition: StatusTransition, filter: StatusFilter): boolean {
	return transition.which === 'agent' ? filter.agent.has(transition.to) : filter.sandbox.has(transition.to.toUpperCase());
}

/** How long a transition into error waits for its cause before it is printed without one. */
const causeWaitMs = 10_000;

function describe(transition: StatusTransition | CauseTransition): string {
	const reason = transition.reason ? ` (${transition.reason.replaceAll('_', ' ')})` : '';
	// The sandbox's own words for why (`ImagePullBackOff`), and whose sub-agent a conversation is.
	const detail = transition.which === 'sandbox' && transition.sandbox_status_detail ? `: ${transition.sandbox_status_detail}` : '';
	// Into error: the error's own words and class (`: rate limit · retryable: LLMRateLimitError: …`).
	const why = 'error_cause' in transition && transition.error_cause ? `: ${causeWords(transition.error_cause)}` : '';
	const parent = transition.parent_conversation_id ? `  (sub-agent of ${transition.parent_conversation_id.slice(0, 8)})` : '';
	const to = transition.to ?? 'cleared';
	return `${transition.time}  ${transition.id.slice(0, 8)}  ${transition.which.padEnd(7)} ${transition.from ?? (transition.which === 'cause' ? 'none' : 'new')} → ${to}${detail}${why}${reason}  ${transition.title}${parent}`;
}

/** `rate limit · retryable: LLMRateLimitError: …`, from the JSON form of a cause. */
function causeWords(cause: ErrorCauseJson): string {
	const {classification} = cause;
	return causeLong({
		eventKind: cause.event_kind,
		eventId: cause.event_id,
		timestamp: cause.timestamp,
		code: cause.code,
		toolName: cause.tool_name,
		detail: cause.detail,
		classification: classification ? {kind: classification.kind, reportedKind: classification.reported_kind, retryable: classification.retryable, userAction: classification.user_action, errorId: classification.error_id} : null,
	}, 120);
}
