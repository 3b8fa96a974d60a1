import {redactSecrets} from '../format/redact.js';
import {errorMessage} from '../wire/errors.js';

/**
 * Messages that reach the snapshot (connection errors, notices, start errors) are shown on screen
 * and printed by headless commands. The wire layer already builds its messages without
 * credentials; this is the second belt: it removes anything shaped like a credential (and any
 * exact secret the store knows), drops control characters and caps the length.
 */

/** The one redaction (format/redact.ts), under the name the state layer has always used. */
export function redact(text: string, secrets: readonly string[] = []): string {
	return redactSecrets(text, secrets);
}

// C0 (except tab and newline), DEL and C1: never part of a one-line message.
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A short, single-line, secret-free message for an error. */
export function publicMessage(error: unknown, secrets: readonly string[] = [], max = 300): string {
	const text = redact(errorMessage(error), secrets).replace(controls, ' ').replace(/\s*\n\s*/g, ' ').trim();
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
