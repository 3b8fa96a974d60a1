/**
 * The request budget that every client on this machine using one server with one key shares
 * (state/budget-ledger-file.ts keeps it in a file; this is the arithmetic, on plain data, with
 * time passed in). It holds:
 * - `sent`: when each request of any client went out, for the longest window in force (a sliding
 *   window log): a request goes only when every window has room. Each send stays counted
 *   `guardMs` beyond its window, as in request-budget.ts, so a server counting arrivals in fixed
 *   windows never sees more than its limit;
 * - `paceAt`: the pacing (GCRA): requests are spread evenly over the window, one every
 *   `window / limit`, with a small burst allowed, instead of the whole window's worth at once
 *   and then nothing until it ends;
 * - a reserve for urgent work: background work (the list walk, sandboxes, specs) may use neither
 *   the last `reserveShare` of a window nor the second half of the burst, so a watcher's look-ups,
 *   visible rows and user actions in any client find room first;
 * - `learned`: the server's real limit, from its 429s. A 429 that names its limit (`20 per 1
 *   minute`, as the hosted service's does) is taken at its word; one that does not makes the
 *   limit what all clients sent in the last minute before it, less a margin, and it is probed
 *   upward by one step every `probeAfterMinutes` minutes without a 429, so at most one more 429
 *   comes in that time. A named limit is kept for `namedKeptMinutes` without a 429 (the server
 *   may have raised it since);
 * - `backoffUntil`: the wait the last 429 asked for, obeyed by every client;
 * - `clients`: each live client's pid and last heartbeat (the header's "shared ×3").
 */

import {firstInside, insertSorted} from './sorted-times.js';

export type LedgerClient = {pid: number; beat: number};

export type LearnedLimit = {
	limit: number;
	windowMs: number;
	/** The server named it (a limit to keep), or it was inferred from what was sent (probed upward). */
	named: boolean;
	/** When it was learned or last raised (ms since epoch). */
	at: number;
};

export type Ledger = {
	sent: number[];
	paceAt: number;
	backoffUntil: number;
	learned: LearnedLimit | null;
	clients: LedgerClient[];
};

export type LedgerLimits = {
	perSecond: number;
	perMinute: number;
	/** The length of the budget's minute (60 000; shorter for tests that make minutes pass in seconds). */
	minuteMs: number;
	guardMs: number;
};

export type Window = {limit: number; windowMs: number};

/** Share of each window kept for urgent work. */
export const reserveShare = 0.15;
/** Minutes without a 429 before an inferred limit is raised by one step. */
export const probeAfterMinutes = 5;
/** Minutes a limit the server named is kept without a 429. */
export const namedKeptMinutes = 60;
/** A client whose heartbeat is older than this is gone. */
export const clientStaleMs = 30_000;
/** Send times kept at most (a bound on the file, whatever the windows). */
const maxSent = 20_000;

export function emptyLedger(): Ledger {
	return {sent: [], paceAt: 0, backoffUntil: 0, learned: null, clients: []};
}

/**
 * A ledger from the file's text. The file is ours, but another version or a crash may have left
 * anything: what cannot be read is dropped, never trusted (an empty ledger is always safe: each
 * client still keeps its own budget).
 */
export function parseLedger(text: string): Ledger {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return emptyLedger();
	}
	if (!raw || typeof raw !== 'object') return emptyLedger();
	const record = raw as Record<string, unknown>;
	const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
	const sent = Array.isArray(record.sent) ? record.sent.filter(finite).slice(-maxSent).sort((a, b) => a - b) : [];
	const clients = Array.isArray(record.clients)
		? record.clients.flatMap((entry: unknown) => {
				const client = entry as Record<string, unknown> | null;
				return client && Number.isInteger(client.pid) && (client.pid as number) > 0 && finite(client.beat) ? [{pid: client.pid as number, beat: client.beat}] : [];
			})
		: [];
	const learnedRaw = record.learned as Record<string, unknown> | null | undefined;
	const learned =
		learnedRaw && finite(learnedRaw.limit) && learnedRaw.limit >= 1 && finite(learnedRaw.windowMs) && learnedRaw.windowMs >= 1000 && finite(learnedRaw.at)
			? {limit: Math.floor(learnedRaw.limit), windowMs: learnedRaw.windowMs, named: learnedRaw.named === true, at: learnedRaw.at}
			: null;
	return {sent, paceAt: finite(record.paceAt) ? record.paceAt : 0, backoffUntil: finite(record.backoffUntil) ? record.backoffUntil : 0, learned, clients};
}

export function serializeLedger(ledger: Ledger): string {
	return JSON.stringify(ledger);
}

/** The windows in force: the configured ones and the learned one. */
export function windowsOf(ledger: Ledger, limits: LedgerLimits): Window[] {
	const windows: Window[] = [
		{limit: limits.perMinute, windowMs: limits.minuteMs},
		{limit: limits.perSecond, windowMs: 1000},
	];
	if (ledger.learned) windows.push({limit: ledger.learned.limit, windowMs: ledger.learned.windowMs});
	return windows;
}

/** Requests a minute the windows in force allow (the tightest one, scaled to a minute). */
export function effectivePerMinute(ledger: Ledger, limits: LedgerLimits): number {
	return Math.max(1, Math.floor(Math.min(...windowsOf(ledger, limits).map((window) => (window.limit * limits.minuteMs) / window.windowMs))));
}

/** Drops send times older than every window, and clients whose heartbeat is stale or whose process `alive` says is gone. */
export function trimLedger(ledger: Ledger, now: number, limits: LedgerLimits, alive: (pid: number) => boolean = () => true): void {
	const longest = Math.max(...windowsOf(ledger, limits).map((window) => window.windowMs)) + limits.guardMs;
	const drop = firstInside(ledger.sent, now - longest);
	if (drop > 0) ledger.sent.splice(0, drop);
	if (ledger.sent.length > maxSent) ledger.sent.splice(0, ledger.sent.length - maxSent);
	ledger.clients = ledger.clients.filter((client) => now - client.beat < clientStaleMs && alive(client.pid));
}

/** Records this client's heartbeat. */
export function beat(ledger: Ledger, pid: number, now: number): void {
	const own = ledger.clients.find((client) => client.pid === pid);
	if (own) own.beat = now;
	else ledger.clients.push({pid, beat: now});
}

export function leave(ledger: Ledger, pid: number): void {
	ledger.clients = ledger.clients.filter((client) => client.pid !== pid);
}

/** Requests sent by all clients in the last minute. */
export function sentInMinute(ledger: Ledger, now: number, limits: LedgerLimits): number {
	return ledger.sent.length - firstInside(ledger.sent, now - limits.minuteMs);
}

/**
 * Reserves `weight` requests for now when every window, the pacing and any backoff allow: 0, and
 * they are recorded as sent. Otherwise nothing changes and the answer is how long to wait (ms).
 */
export function reserve(ledger: Ledger, request: {now: number; weight: number; urgent: boolean}, limits: LedgerLimits): number {
	const {now, urgent} = request;
	raiseProbe(ledger, now, limits);
	const windows = windowsOf(ledger, limits);
	const weight = Math.max(1, Math.min(Math.floor(request.weight), ...windows.map((window) => window.limit)));
	let wait = Math.max(0, ledger.backoffUntil - now);
	const sent = ledger.sent;
	for (const {limit, windowMs} of windows) {
		const span = windowMs + limits.guardMs;
		const kept = urgent ? 0 : Math.min(limit - weight, Math.ceil(limit * reserveShare));
		const allowed = limit - weight - kept;
		const inWindow = sent.length - firstInside(sent, now - span);
		if (inWindow > allowed) wait = Math.max(wait, sent[sent.length - allowed - 1]! + span - now);
	}

	// The pacing: one request every `spacing`, with a burst of `burst` allowed (half of it to background work).
	const {spacing, burst} = pacingOf(windows, limits.guardMs);
	const tolerance = (urgent ? burst - 1 : Math.max(0, Math.floor(burst / 2) - 1)) * spacing;
	const debt = ledger.paceAt - now;
	if (debt > tolerance) wait = Math.max(wait, debt - tolerance);
	if (wait > 0) return Math.ceil(wait);
	for (let count = 0; count < weight; count++) sent.push(now);
	ledger.paceAt = Math.max(ledger.paceAt, now) + weight * spacing;
	return 0;
}

/** Counts requests a client sent outside `reserve` (an HTTP client's own retry). */
export function record(ledger: Ledger, now: number, count = 1): void {
	for (let index = 0; index < count; index++) insertSorted(ledger.sent, now);
}

/** A weighted reservation's later requests went out at `now`, not when it was reserved. */
export function restamp(ledger: Ledger, reservedAt: number, count: number, now: number): void {
	let moved = 0;
	let index = firstInside(ledger.sent, reservedAt - 1);
	while (moved < count && index < ledger.sent.length && ledger.sent[index] === reservedAt) {
		ledger.sent.splice(index, 1);
		moved++;
	}

	index = 0;
	for (; index < moved; index++) insertSorted(ledger.sent, now);
}

export type RateLimitInfo = {
	/** The wait the 429 asked for (Retry-After, or until X-RateLimit-Reset). */
	retryAfterMs?: number | undefined;
	/** The limit the 429 named (`20 per 1 minute`), when it did. */
	limit?: number | undefined;
	windowMs?: number | undefined;
};

/**
 * A 429: every client waits what it asked, and the limit is learned. Named: kept as named (the
 * server said it). Not named: what all clients sent in the last minute, less a margin of a tenth
 * (at least one), and never above an inferred limit already in force.
 */
export function learnFromRateLimit(ledger: Ledger, info: RateLimitInfo, now: number, limits: LedgerLimits): void {
	if (info.retryAfterMs !== undefined) ledger.backoffUntil = Math.max(ledger.backoffUntil, now + info.retryAfterMs);
	if (info.limit !== undefined && info.windowMs !== undefined && info.limit >= 1 && info.windowMs >= 1000) {
		// A named per-second limit as the configured one changes nothing worth keeping.
		const configured = windowsOf(emptyLedger(), limits).some((window) => window.windowMs === info.windowMs && window.limit <= info.limit!);
		if (!configured) ledger.learned = {limit: Math.floor(info.limit), windowMs: info.windowMs, named: true, at: now};
		return;
	}

	const sent = sentInMinute(ledger, now, limits);
	const inferred = Math.max(1, sent - Math.max(1, Math.ceil(sent * 0.1)));
	const current = ledger.learned && !ledger.learned.named && ledger.learned.windowMs === limits.minuteMs ? ledger.learned.limit : Number.POSITIVE_INFINITY;
	ledger.learned = {limit: Math.min(inferred, current, limits.perMinute), windowMs: limits.minuteMs, named: false, at: now};
}

/**
 * An inferred limit is raised by a step (a twentieth, at least one) after `probeAfterMinutes`
 * minutes without a 429, and forgotten once it reaches the configured one.
 */
export function raiseProbe(ledger: Ledger, now: number, limits: LedgerLimits): void {
	const learned = ledger.learned;
	if (!learned) return;
	if (learned.named) {
		if (now - learned.at >= namedKeptMinutes * limits.minuteMs) ledger.learned = null;
		return;
	}
	const period = probeAfterMinutes * limits.minuteMs;
	if (now - learned.at < period) return;
	const steps = Math.floor((now - learned.at) / period);
	let limit = learned.limit;
	for (let step = 0; step < steps; step++) limit += Math.max(1, Math.floor(limit / 20));
	if (limit >= limits.perMinute) ledger.learned = null;
	else ledger.learned = {...learned, limit, at: learned.at + steps * period};
}

/**
 * The pacing of the window that allows the fewest requests a millisecond: a burst of a tenth of
 * its limit (at least 2: a first screen needs a few at once), and the rest spread evenly over
 * the window, so a burst and a window's worth of paced requests never add up to more than the
 * limit: the window never fills early and then stops everything until it ends.
 */
function pacingOf(windows: readonly Window[], guardMs: number): {spacing: number; burst: number} {
	let tightest = windows[0]!;
	for (const window of windows) if (window.windowMs / window.limit > tightest.windowMs / tightest.limit) tightest = window;
	const burst = Math.max(1, Math.min(Math.ceil(tightest.limit / 2), Math.max(2, Math.ceil(tightest.limit / 10))));
	return {spacing: (tightest.windowMs + guardMs) / Math.max(1, tightest.limit - burst), burst};
}
