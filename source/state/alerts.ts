import {eventSummary} from '../format/event-summary.js';
import {alertBytes, type Multiplexer, type NotifyProtocol} from '../format/terminal-notify.js';
import type {AlertCommand, AlertPayload} from './alert-command.js';
import {causeShort} from '../format/error-cause.js';
import {redactSecrets} from '../format/redact.js';
import {secretValue} from '../wire/secret.js';
import type {ConversationRow, DashboardStore} from './dashboard-types.js';
import type {PendingAction} from './timeline-query.js';
import {TransitionDetector, type StatusTransition} from './status-transitions.js';
import {passthroughAdvice, type PassthroughState} from './tmux-passthrough.js';

/**
 * Alerts (`--alerts`, `--alert-command`): when a conversation *enters* a state that needs a
 * person (waiting for confirmation, error, stuck, a sandbox in ERROR), a terminal bell and a
 * desktop notification, and/or a command fed the alert as JSON. Once per real transition
 * (state/status-transitions.ts: a reconnect, a refresh or the first load rings nothing) and
 * rate-limited: at most one alert per `minIntervalMs`; what comes in between is coalesced into one
 * ("3 conversations need you").
 *
 * Each alert names its reason: what an approval is for (`approve: $ rm -rf build/ …`, read from
 * the conversation's agent server), why an error happened, why a sandbox is down. Everything the
 * server said is made printable and short first: nothing from it reaches the terminal as a
 * control sequence, and no key (the dashboard's, the conversation's session key, anything shaped
 * like a credential) reaches the notification or the command. Inside tmux or screen the notification is wrapped so the multiplexer passes it
 * on (format/terminal-notify.ts); the first time inside a tmux that would drop it, the notice
 * line says which setting it needs.
 */

export type AlertOptions = {
	/** Writes to the terminal (the real stdout, outside Ink's frame); absent: no terminal alert. */
	write?(text: string): void;
	bell?: boolean;
	/** The desktop notification's sequence (default OSC 9); null: the bell only. */
	protocol?: NotifyProtocol | null;
	/** The multiplexer to wrap the notification for (format/terminal-notify.ts multiplexerOf). */
	multiplexer?: Multiplexer;
	/** `--alert-command`: fed each alert as JSON. */
	command?: AlertCommand | null;
	/** The server's label, for the command's JSON. */
	server?: string;
	/** Keys this dashboard holds (its API key): never in an alert, whatever an agent wrote. */
	secrets?: readonly string[];
	/** What a conversation waits for (the controller's pendingActions), so an approval alert names it. */
	pendingActions?(conversationKey: string): Promise<readonly PendingAction[]>;
	/** How long to wait for the pending actions, or an error's cause, before the alert goes without them (default 3 s). */
	reasonTimeoutMs?: number;
	/**
	 * The store reads why a conversation failed (row.errorCause, state/error-causes.ts): an error
	 * alert waits for that read (up to `reasonTimeoutMs`) to say it (`error · rate limit · retryable`).
	 */
	errorCauses?: boolean;
	/**
	 * The store reads why a sandbox is down from the sandbox list (row.sandboxDetail), polled apart
	 * from the conversations: a sandbox alert waits for it (up to `reasonTimeoutMs`) to say
	 * `sandbox error: OOMKilled`, not just `sandbox error`.
	 */
	sandboxReasons?: boolean;
	/** Inside tmux: whether it forwards passthrough, asked at the first alert. */
	passthrough?(): Promise<PassthroughState>;
	/** The dashboard's notice line. */
	notice?(text: string, level: 'info' | 'warn'): void;
	minIntervalMs?: number;
	now?: () => number;
};

/** One conversation's alert: who, and why in words. */
export type AlertItem = {id: string; title: string; kind: string; reason: string; time: string};

const needsPerson = new Set(['waiting_for_confirmation', 'error', 'stuck']);

export function needsAttention(transition: StatusTransition): boolean {
	return transition.which === 'agent' ? needsPerson.has(transition.to) : transition.to === 'error';
}

/** Printable, single-line, short: what an alert carries of the server's text. */
export function alertText(text: string, max = 80): string {
	const clean = text.replaceAll(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, ' ').replaceAll(/\s+/g, ' ').trim();
	return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * Why the conversation needs you, in the words of the alert: `approve: $ rm -rf build/ …` (the
 * first pending action, and how many more), `error · rate limit · retryable` (the error's cause,
 * once the store has read it), `stuck`, `sandbox error: ImagePullBackOff`. What an agent or a
 * runtime wrote is redacted (`secrets` and anything shaped like a credential) before it is cut,
 * so no part of a key is left. Pure.
 */
export function alertReason(transition: StatusTransition, actions: readonly PendingAction[] | null, row?: ConversationRow, secrets: readonly string[] = []): string {
	const words = (text: string, max: number) => alertText(redactSecrets(text, secrets), max);
	if (transition.which === 'sandbox') return `sandbox ${transition.to.toLowerCase()}${row?.sandboxDetail ? `: ${words(row.sandboxDetail, 60)}` : ''}`;
	switch (transition.to) {
		case 'error':
			return row?.errorCause ? `error · ${words(causeShort(row.errorCause), 100)}` : 'error';
		case 'waiting_for_confirmation': {
			const first = actions?.[0];
			if (!first) return 'approve: an action waits for you';
			const more = actions.length > 1 ? ` (+${actions.length - 1} more)` : '';
			return `approve: ${words(eventSummary(first).text, 60)}${more}`;
		}
		default:
			return transition.to.replaceAll('_', ' ');
	}
}

export function attachAlerts(store: DashboardStore, options: AlertOptions): () => void {
	const now = options.now ?? (() => Date.now());
	const minIntervalMs = options.minIntervalMs ?? 10_000;
	const detector = new TransitionDetector();
	let lastAlertAt = Number.NEGATIVE_INFINITY;
	let pending: AlertItem[] = [];
	let timer: ReturnType<typeof setTimeout> | undefined;
	let closed = false;
	let toldPassthrough = false;

	const tellPassthroughOnce = () => {
		if (toldPassthrough || options.multiplexer !== 'tmux' || !options.passthrough || !options.write || options.protocol === null) return;
		toldPassthrough = true;
		void options.passthrough().then((state) => {
			if (!closed && state !== 'on') options.notice?.(passthroughAdvice, 'warn');
		});
	};

	const ring = (items: readonly AlertItem[]) => {
		lastAlertAt = now();
		const first = items[0]!;
		// The reason leads: it is what a notification shortened by the desktop must still say.
		const body = items.length === 1 ? `${first.reason} · ${first.title || first.id.slice(0, 8)}` : `${items.length} conversations need you: ${items.map((item) => item.reason.split(':')[0]).join(', ')}`;
		if (options.write) {
			const bytes = alertBytes({
				bell: options.bell ?? true,
				protocol: options.protocol === undefined ? 'osc9' : options.protocol,
				multiplexer: options.multiplexer ?? null,
				title: 'agent-tui',
				body: alertText(body, 160),
			});
			if (bytes) options.write(bytes);
			tellPassthroughOnce();
		}
		if (options.command) {
			const payload: AlertPayload =
				items.length === 1
					? {conversation_id: first.id, title: first.title, reason: first.reason, kind: first.kind, time: first.time, server: options.server ?? ''}
					: {
							conversation_id: null,
							title: null,
							reason: alertText(body, 160),
							kind: 'several',
							time: new Date(now()).toISOString(),
							server: options.server ?? '',
							alerts: items.map((item) => ({conversation_id: item.id, title: item.title, reason: item.reason, kind: item.kind})),
						};
			options.command.run(payload);
		}
	};
	const flush = () => {
		timer = undefined;
		if (pending.length === 0 || closed) return;
		const batch = pending;
		pending = [];
		ring(batch);
	};
	const enqueue = (item: AlertItem) => {
		if (closed) return;
		pending.push(item);
		const wait = lastAlertAt + minIntervalMs - now();
		if (wait <= 0 && timer === undefined) flush();
		else timer ??= setTimeout(flush, Math.max(0, wait));
	};

	const itemFor = (transition: StatusTransition, actions: readonly PendingAction[] | null, row?: ConversationRow): AlertItem => {
		// The dashboard's keys and the conversation's own session key (an agent may echo it).
		const sessionKey = secretValue(store.getSnapshot().conversations.get(transition.id)?.conversation.session_api_key as Parameters<typeof secretValue>[0]);
		const secrets = [...(options.secrets ?? []), ...(sessionKey ? [sessionKey] : [])];
		return {
			id: transition.id,
			title: alertText(redactSecrets(transition.title, secrets), 120),
			kind: transition.which === 'sandbox' ? 'sandbox_error' : transition.to,
			reason: alertText(alertReason(transition, actions, row, secrets), 120),
			time: transition.time,
		};
	};

	/** Its reason is known: an error's cause read, a sandbox's detail listed. */
	const reasonKnown = (transition: StatusTransition, row: ConversationRow | undefined): boolean =>
		transition.which === 'sandbox' ? Boolean(row?.sandboxDetail) : row?.errorCause !== undefined;
	/** Alerts waiting for their reason (an error's cause, a sandbox's detail), in the order seen. */
	const awaitingCause: Array<{transition: StatusTransition; since: number; timer: ReturnType<typeof setTimeout>}> = [];
	/** Releases those whose reason is known or whose wait is over; `expired`'s timer has ended its wait whatever `now()` reads. */
	const releaseErrors = (expired?: StatusTransition) => {
		const snapshot = store.getSnapshot();
		const timeout = options.reasonTimeoutMs ?? 3000;
		for (let index = 0; index < awaitingCause.length; index++) {
			const waiting = awaitingCause[index]!;
			const row = snapshot.conversations.get(waiting.transition.id);
			if (!reasonKnown(waiting.transition, row) && waiting.transition !== expired && now() - waiting.since < timeout) continue;
			clearTimeout(waiting.timer);
			awaitingCause.splice(index--, 1);
			enqueue(itemFor(waiting.transition, null, row));
		}
	};

	const unsubscribe = store.subscribe(() => {
		const snapshot = store.getSnapshot();
		// Only complete answers count: a first load that is still paging is not a baseline.
		if (snapshot.connection.lastSuccessAt === null) return;
		// A snoozed row is observed (its baseline moves on) but raises nothing (state/snoozes.ts).
		const entering = detector.observe(snapshot.conversations.values(), now()).filter((transition) => needsAttention(transition) && !snapshot.conversations.get(transition.id)?.snoozed);
		for (const transition of entering) {
			const row = snapshot.conversations.get(transition.id);
			const approval = transition.which === 'agent' && transition.to === 'waiting_for_confirmation';
			const readsReason = transition.which === 'sandbox' ? options.sandboxReasons : transition.to === 'error' && options.errorCauses;
			if (readsReason && !reasonKnown(transition, row)) {
				// Why it failed is one read away: wait for it, but never long (the timer releases it).
				awaitingCause.push({transition, since: now(), timer: setTimeout(() => releaseErrors(transition), options.reasonTimeoutMs ?? 3000)});
				continue;
			}
			if (!approval || !options.pendingActions) {
				enqueue(itemFor(transition, null, row));
				continue;
			}
			// What it waits for is on its agent server: read it, but never hold the alert long for it.
			void withTimeout(options.pendingActions(transition.id), options.reasonTimeoutMs ?? 3000).then((actions) => enqueue(itemFor(transition, actions)));
		}
		releaseErrors();
	});
	return () => {
		closed = true;
		for (const waiting of awaitingCause) clearTimeout(waiting.timer);
		unsubscribe();
		if (timer !== undefined) clearTimeout(timer);
	};
}

/** The promise's value, or null when it fails or takes longer than `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(null), ms);
		promise.then(
			(value) => {
				clearTimeout(timer);
				resolve(value);
			},
			() => {
				clearTimeout(timer);
				resolve(null);
			},
		);
	});
}
