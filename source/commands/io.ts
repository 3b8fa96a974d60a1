import {redactSecrets} from '../format/redact.js';
import {sanitizeLine, sanitizeText} from '../format/sanitize.js';
import {errorMessage} from '../wire/errors.js';

/**
 * Where a command writes. stdout carries the result (table, JSON, ids) and nothing else, so it
 * can be piped; stderr carries progress, notes and errors, each line `agent-tui: …`. Every
 * stderr line goes through redactSecrets() with the credentials known so far.
 */
export type Io = {
	stdout: NodeJS.WritableStream & {isTTY?: boolean; columns?: number};
	stderr: NodeJS.WritableStream;
	/** Credential values to scrub from anything printed; commands add session keys as they meet them. */
	secrets: string[];
	debug: boolean;
};

export function createIo(debug: boolean): Io {
	return {stdout: process.stdout, stderr: process.stderr, secrets: [], debug};
}

/** A line of machine output (JSON), written as is. */
export function printLine(io: Io, text: string): void {
	io.stdout.write(`${text}\n`);
}

/** A line for people: server-supplied text in it can hold escape sequences, so it is sanitized. */
export function printText(io: Io, text: string): void {
	io.stdout.write(`${sanitizeLine(redactSecrets(text, io.secrets))}\n`);
}

/** Progress for people that is not the result (the events `start --wait` follows): stderr, sanitized. */
export function printProgress(io: Io, text: string): void {
	io.stderr.write(`${sanitizeLine(redactSecrets(text, io.secrets))}\n`);
}

/** A note for the person watching: one line on stderr. */
export function note(io: Io, text: string): void {
	io.stderr.write(`agent-tui: ${sanitizeLine(redactSecrets(text, io.secrets))}\n`);
}

/** The one line a failure prints (plus the redacted stack with AGENT_TUI_DEBUG=1). */
export function printError(io: Io, error: unknown): void {
	const message = redactSecrets(errorMessage(error), io.secrets).replaceAll(/\s*\n\s*/g, ' ').trim();
	io.stderr.write(`agent-tui: ${sanitizeLine(message.length > 600 ? `${message.slice(0, 599)}…` : message)}\n`);
	if (io.debug && error instanceof Error && error.stack) io.stderr.write(`${sanitizeText(redactSecrets(error.stack, io.secrets))}\n`);
}

export function addSecret(io: Io, value: {reveal(): string} | null | undefined): void {
	const text = value?.reveal();
	if (text && !io.secrets.includes(text)) io.secrets.push(text);
}
