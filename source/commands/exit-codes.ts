import {ConfigError} from '../config/errors.js';
import {
	KeyRejectedError,
	NetworkError,
	NotApiError,
	NotFoundError,
	OutcomeUnknownError,
	ProtocolError,
	RateLimitedError,
	RequestRefusedError,
	ServerError,
	TimeoutError,
	ValidationError,
} from '../wire/errors.js';

/**
 * The process exit codes of every command; scripts branch on them, so they never change meaning.
 * Documented in `--help` (cli-help.ts prints this table).
 */
export const ExitCode = {
	ok: 0,
	/** A bug or an error nothing else describes. */
	unexpected: 1,
	/** Bad flags or arguments, bad configuration, or a request the server refused as invalid. */
	usage: 2,
	/** The server rejected the API key (401/403). */
	keyRejected: 3,
	/** The conversation, sandbox or page does not exist (404, or an unknown id). */
	notFound: 4,
	/** Network or server failure: unreachable, timeout, 5xx, rate limited, not the API, bad answer. */
	server: 5,
	/** `start` ended in ERROR; with --wait also a conversation that ended other than finished. */
	startFailed: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeHelp: ReadonlyArray<[ExitCode, string]> = [
	[ExitCode.ok, 'success (for --follow / --wait: the conversation reached its end)'],
	[ExitCode.unexpected, 'unexpected internal error'],
	[ExitCode.usage, 'usage error: bad flags, arguments or configuration, a request the server\n     refused as invalid (400, 409, 422), or a redirect (never followed)'],
	[ExitCode.keyRejected, 'API key rejected (401/403)'],
	[ExitCode.notFound, 'not found: unknown conversation or sandbox'],
	[ExitCode.server, 'network or server failure: unreachable, timeout (--timeout), 5xx, rate\n     limited, not the API (a web page), bad answer, agent server not running'],
	[ExitCode.startFailed, 'start failed: the start task ended in ERROR; with --wait, also a\n     conversation that ended in error or stuck, or lost its sandbox'],
];

/** A mistake in how the command was called. */
export class UsageError extends Error {
	override name = 'UsageError';
}

/** The thing named on the command line does not exist (no HTTP 404 behind it: a null look-up). */
export class MissingError extends Error {
	override name = 'MissingError';
}

/** The server cannot serve the request right now (a conversation's sandbox is not running). */
export class UnavailableError extends Error {
	override name = 'UnavailableError';
}

/** A start task that ended in ERROR, or a start stream that ended without READY. */
export class StartFailedError extends Error {
	override name = 'StartFailedError';
}

export function exitCodeFor(error: unknown): ExitCode {
	if (error instanceof UsageError || error instanceof ConfigError) return ExitCode.usage;
	if (error instanceof StartFailedError) return ExitCode.startFailed;
	if (error instanceof KeyRejectedError) return ExitCode.keyRejected;
	if (error instanceof NotFoundError || error instanceof MissingError) return ExitCode.notFound;
	if (error instanceof ValidationError || error instanceof RequestRefusedError) return ExitCode.usage;
	if (
		error instanceof UnavailableError ||
		error instanceof NetworkError ||
		error instanceof TimeoutError ||
		error instanceof ServerError ||
		error instanceof RateLimitedError ||
		error instanceof NotApiError ||
		error instanceof ProtocolError ||
		error instanceof OutcomeUnknownError
	) {
		return ExitCode.server;
	}
	return ExitCode.unexpected;
}
