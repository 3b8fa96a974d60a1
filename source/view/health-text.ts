import {formatAge} from '../format/time.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {ConnectionState} from '../state/dashboard-types.js';
import {notApiWords} from '../wire/errors.js';

export type HealthText = {text: string; color: string | undefined};

/**
 * Connection health in words (readable without colour): `● live`, `↻ reconnecting (retry 8s)`,
 * `◐ polling`, `! stale 2m`, `✗ key rejected`, and, once polls fail, the age of the conversation
 * list (`list 3s old`); the open timeline's stream lag is in its own header. While polls succeed
 * no age is shown: the store does not publish a success that brought nothing new (an idle
 * dashboard must not redraw), so `lastSuccessAt` is then only when the data last changed, and an
 * age from it read as stale on a quiet account whose every poll succeeded.
 */
export function healthText(connection: ConnectionState, now: number, keySource: string | null = null): HealthText {
	// Where the refused key came from: the environment, a key file, a profile (the headless commands say the same).
	if (connection.keyRejected) return {text: `✗ key rejected (${keySource ? sanitizeLine(keySource) : 'check OPENHANDS_API_KEY'})`, color: 'red'};
	const age = connection.lastSuccessAt === null ? null : formatAge(Math.max(0, now - connection.lastSuccessAt));
	const wait = retryWait(connection.nextRetryAt, now);
	const retry = wait ? ` (retry ${wait})` : '';
	switch (connection.health) {
		case 'live':
			return {text: '● live', color: 'green'};
		case 'polling':
			return {text: '◐ polling', color: 'cyan'};
		case 'reconnecting':
			// The age is the list's (polling), not the stream's: the timeline header has the stream's lag.
			return {text: `↻ reconnecting${retry}${age ? ` · list ${age} old` : ''}`, color: 'yellow'};
		case 'stale':
			return {text: `! stale ${age ?? ''}${retry}`.trimEnd(), color: 'yellow'};
		case 'offline':
			// A web page where the API should be is not an outage: retrying will not fix the URL.
			if (connection.lastError?.includes(notApiWords)) return {text: '✗ not the API (check the base URL)', color: 'red'};
			return {text: `✗ offline${retry}${age ? ` · list ${age} old` : ''}`, color: 'red'};
		default:
			return {text: sanitizeLine(String(connection.health)), color: undefined};
	}
}

/**
 * The wait until the next retry (`43s`), or null when none is pending. The one source of the
 * countdown: the header's `(retry 43s)` and the notice line's `retry in 43s` both read it, from
 * the same `nextRetryAt` on clocks that tick on the same second.
 */
export function retryWait(nextRetryAt: number | null, now: number): string | null {
	return nextRetryAt !== null && nextRetryAt > now ? formatAge(nextRetryAt - now) : null;
}

/**
 * `87/100 req/min` when the request budget is nearly spent, the limit when it was learned from
 * the server's 429s (`limit 20/min` when the 429 named it, `limit ≈18/min` when estimated from
 * what was sent), otherwise empty.
 */
export function budgetText(connection: ConnectionState): string {
	if (connection.budgetPerMinute <= 0) return '';
	const parts: string[] = [];
	if (connection.requestsLastMinute >= connection.budgetPerMinute * 0.8) parts.push(`${connection.requestsLastMinute}/${connection.budgetPerMinute} req/min`);
	if (connection.budgetLearned) parts.push(`limit ${connection.budgetLearned === 'inferred' ? '≈' : ''}${connection.budgetPerMinute}/min`);
	return parts.join(' · ');
}

/** `budget shared ×3` while other clients on this machine share this server's and key's budget, otherwise empty. */
export function budgetShareText(connection: ConnectionState): string {
	return connection.budgetClients !== undefined && connection.budgetClients > 1 ? `budget shared ×${connection.budgetClients}` : '';
}

/**
 * One server's health in the all-servers header, short: `● live`, `◐`, `↻`, `! stale 40s`,
 * `✗ offline 2m`, `✗ key rejected`; the same symbols, colours and ages as the one-server header.
 */
export function serverHealthShort(connection: ConnectionState, now: number): HealthText {
	if (connection.keyRejected) return {text: '✗ key rejected', color: 'red'};
	const age = connection.lastSuccessAt === null ? '' : ` ${formatAge(Math.max(0, now - connection.lastSuccessAt))}`;
	switch (connection.health) {
		case 'live':
			return {text: '● live', color: 'green'};
		case 'polling':
			return {text: '◐', color: 'cyan'};
		case 'reconnecting':
			return {text: '↻', color: 'yellow'};
		case 'stale':
			return {text: `! stale${age}`, color: 'yellow'};
		case 'offline':
			return {text: `✗ offline${age}`, color: 'red'};
		default:
			return {text: sanitizeLine(String(connection.health)), color: undefined};
	}
}
