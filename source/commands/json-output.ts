import {redactSecrets} from '../format/redact.js';

/**
 * JSON for scripts. Three guarantees on top of JSON.stringify:
 * - credentials: `Secret` fields already serialise as "[redacted]"; every string value is also
 *   passed through redactSecrets() with the known key values, so a key an agent echoed into its output
 *   is not printed either. Done per value, so the JSON stays valid whatever the text holds.
 * - `encrypted_content` never appears with a value (the parser already replaced it; this is
 *   the second belt).
 * - events, actions and observations the client did not understand are printed as the server
 *   sent them (their `raw`), not as the client's internal wrapper.
 */
const unknownWrappers = new Set(['UnknownEvent', 'UnknownAction', 'UnknownObservation']);

export function jsonReplacer(secrets: readonly string[]): (key: string, value: unknown) => unknown {
	return function (key, value) {
		if (key === 'encrypted_content' && value != null) return '[hidden]';
		if (typeof value === 'string') return redactSecrets(value, secrets);
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			const record = value as Record<string, unknown>;
			if (typeof record.kind === 'string' && unknownWrappers.has(record.kind) && record.raw !== null && typeof record.raw === 'object') {
				return record.raw;
			}
		}
		return value;
	};
}

export function toJson(value: unknown, secrets: readonly string[]): string {
	return JSON.stringify(value, jsonReplacer(secrets));
}
