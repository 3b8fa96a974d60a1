import {createDashboard} from '../state/dashboard-store.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {awaitsCause, TransitionDetector, type StatusTransition, withErrorCause} from '../state/status-transitions.js';
import {causeLong} from '../format/error-cause.js';
import type {ErrorCauseJson} from '../wire/error-classification.js';
import {KeyRejectedError} from '../wire/errors.js';
import type {CommandFlags} from './flags.js';
import {note, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import {SandboxReasonWait} from './sandbox-reason-wait.js';
import type {Server} from './server.js';
import {parseStatusFilter, type StatusFilter, unknownStatusWarning} from './status-filter.js';

/**
 * `agent-tui watch [--status S[,S...]] [--json]`: one line per status transition of any
 * conversation, for scripts and cron, until interrupted (exit 0). It runs the dashboard's own
 * store (batched look-ups under the request budget, backoff on failures), without the view, and
 * reports each change once (state/status-transitions.ts). `--status` keeps the transitions *into*
 * one of the given statuses. A rejected key ends it with exit 3.
 */
export async function runWatch(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const filter = parseStatusFilter(flags.status);
	const warning = unknownStatusWarning(filter);
	if (warning) note(io, warning);
	// The server's budget, which also counts the client's own retries: one account of the requests sent.
	const {store, controller} = createDashboard({appClient: server.app, appBaseUrl: server.baseUrl, serverLabel: server.label, demo: server.demo, secrets: io.secrets, budget: server.budget, ...(server.transport ? {transport: server.transport} : {}), ...(server.intervals ? {intervals: server.intervals} : {})});
	const detector = new TransitionDetector();
	let finish!: (code: number) => void;
	const ended = new Promise<number>((resolve) => {
		finish = resolve;
	});
	let keyRejected: string | null = null;
	let loaded = false;
	let lastProblem: string | null = null;

	const onSnapshot = (snapshot: DashboardSnapshot) => {
		const {connection} = snapshot;
		if (connection.keyRejected) {
			keyRejected = connection.lastError ?? 'the server rejected the API key';
			finish(3);
			return;
		}
		if (connection.lastError && connection.lastError !== lastProblem) note(io, `cannot refresh: ${connection.lastError}; retrying`);
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
		// A held transition goes out after its wait even when nothing else changes.
		if (reasons.holding || held.length > 0) recheck ??= setInterval(() => onSnapshot(store.getSnapshot()), 1000);
		else if (recheck) {
			clearInterval(recheck);
			recheck = undefined;
		}
	};
	const print = (transition: StatusTransition) => (flags.json ? printLine(io, toJson(transition, io.secrets)) : printText(io, describe(transition)));
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
	const stop = () => finish(0);
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	try {
		const code = await ended;
		if (keyRejected) throw new KeyRejectedError(keyRejected, 401);
		return code;
	} finally {
		// Ending (ctrl-c, a refused key): what is held for a reason or a cause goes out as known now.
		const last = store.getSnapshot();
		release(last, true);
		for (const transition of reasons.flush(last)) print(awaitsCause(transition) ? withErrorCause(transition, last.conversations.get(transition.id)) : transition);
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		unsubscribe();
		if (recheck) clearInterval(recheck);
		await controller.close();
	}
}

function matches(transition: StatusTransition, filter: StatusFilter): boolean {
	return transition.which === 'agent' ? filter.agent.has(transition.to) : filter.sandbox.has(transition.to.toUpperCase());
}

/** How long a transition into error waits for its cause before it is printed without one. */
const causeWaitMs = 10_000;

function describe(transition: StatusTransition): string {
	const reason = transition.reason ? ` (${transition.reason.replaceAll('_', ' ')})` : '';
	// The sandbox's own words for why (`ImagePullBackOff`), and whose sub-agent a conversation is.
	const detail = transition.which === 'sandbox' && transition.sandbox_status_detail ? `: ${transition.sandbox_status_detail}` : '';
	// Into error: the error's own words and class (`: rate limit · retryable: LLMRateLimitError: …`).
	const why = transition.error_cause ? `: ${causeWords(transition.error_cause)}` : '';
	const parent = transition.parent_conversation_id ? `  (sub-agent of ${transition.parent_conversation_id.slice(0, 8)})` : '';
	return `${transition.time}  ${transition.id.slice(0, 8)}  ${transition.which.padEnd(7)} ${transition.from ?? 'new'} → ${transition.to}${detail}${why}${reason}  ${transition.title}${parent}`;
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
