import type {DashboardStore} from './dashboard-types.js';
import {TransitionDetector, type StatusTransition} from './status-transitions.js';

/**
 * Opt-in alerts (`--alerts`): a terminal bell and an OSC 9 desktop notification when a
 * conversation *enters* a state that needs a person (waiting for confirmation, error, stuck, a
 * sandbox in ERROR). Once per real transition (state/status-transitions.ts: a reconnect, a
 * refresh or the first load rings nothing) and rate-limited: at most one alert per
 * `minIntervalMs`; what comes in between is coalesced into one ("3 conversations need you").
 * The text is ours plus a sanitized, shortened title: nothing from the server reaches the
 * terminal as a control sequence.
 */

export type AlertOptions = {
	/** Writes to the terminal (the real stdout, outside Ink's frame). */
	write(text: string): void;
	bell?: boolean;
	osc9?: boolean;
	minIntervalMs?: number;
	now?: () => number;
};

const needsPerson = new Set(['waiting_for_confirmation', 'error', 'stuck']);

export function needsAttention(transition: StatusTransition): boolean {
	return transition.which === 'agent' ? needsPerson.has(transition.to) : transition.to === 'error';
}

/** Printable, single-line, short: the only server text an alert carries is a title. */
export function alertText(text: string, max = 80): string {
	const clean = text.replaceAll(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, ' ').replaceAll(/\s+/g, ' ').trim();
	return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export function attachAlerts(store: DashboardStore, options: AlertOptions): () => void {
	const now = options.now ?? (() => Date.now());
	const minIntervalMs = options.minIntervalMs ?? 10_000;
	const detector = new TransitionDetector();
	let lastAlertAt = Number.NEGATIVE_INFINITY;
	let pending: StatusTransition[] = [];
	let timer: ReturnType<typeof setTimeout> | undefined;

	const ring = (transitions: readonly StatusTransition[]) => {
		lastAlertAt = now();
		const first = transitions[0]!;
		const message =
			transitions.length === 1
				? `agent-tui: ${first.which === 'sandbox' ? 'sandbox ' : ''}${first.to.replaceAll('_', ' ')}: ${alertText(first.title || first.id.slice(0, 8))}`
				: `agent-tui: ${transitions.length} conversations need you`;
		let out = '';
		if (options.bell ?? true) out += '\u0007';
		if (options.osc9 ?? true) out += `\u001B]9;${alertText(message, 120)}\u0007`;
		if (out) options.write(out);
	};
	const flush = () => {
		timer = undefined;
		if (pending.length === 0) return;
		const batch = pending;
		pending = [];
		ring(batch);
	};

	const unsubscribe = store.subscribe(() => {
		const snapshot = store.getSnapshot();
		// Only complete answers count: a first load that is still paging is not a baseline.
		if (snapshot.connection.lastSuccessAt === null) return;
		const entering = detector.observe(snapshot.conversations.values(), now()).filter(needsAttention);
		if (entering.length === 0) return;
		pending.push(...entering);
		const wait = lastAlertAt + minIntervalMs - now();
		if (wait <= 0 && timer === undefined) flush();
		else timer ??= setTimeout(flush, Math.max(0, wait));
	});
	return () => {
		unsubscribe();
		if (timer !== undefined) clearTimeout(timer);
	};
}
