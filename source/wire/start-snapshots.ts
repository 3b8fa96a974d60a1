import {errors as undiciErrors} from '../boundary/undici-parts.js';
import {ApiError, NotApiError, ProtocolError, TimeoutError} from './errors.js';
import {startTaskSchema, type StartTask} from './schemas/app.js';
import {describeIssues} from './schemas/common.js';
import {parseJsonArrayStream} from './stream-start.js';

/**
 * The body of `POST /stream-start` turned into validated StartTask snapshots, each as it
 * arrives. The stream is over at the first READY or ERROR snapshot, whatever follows it.
 *
 * A connection that breaks mid-body is the same situation for the user as the real server's
 * truncated array after an early failure (docs/service-behaviour.md §1.3): the task may exist and may
 * still be starting. So it ends the byte source quietly and the parser reports the truncation
 * ("ended before it finished (after N updates)"). Cancellation and a stalled body are not
 * truncation and keep their own errors.
 */

const terminal = new Set(['READY', 'ERROR']);

export type SnapshotOptions = {
	signal: AbortSignal;
	/** `POST /api/v1/app-conversations/stream-start`, for messages. */
	where: string;
	/** The body timeout the request was given, for the stall message. */
	idleTimeoutMs: number;
};

export async function* startTaskSnapshots(chunks: AsyncIterable<Uint8Array>, options: SnapshotOptions): AsyncGenerator<StartTask> {
	let index = 0;
	for await (const element of parseJsonArrayStream(endOnBreak(chunks, options))) {
		index++;
		const result = startTaskSchema.safeParse(element);
		if (!result.success) {
			throw new ProtocolError(`${options.where}: start-task update ${index} is malformed (${describeIssues(result.error)})`);
		}
		yield result.data;
		// Returning closes the body: nothing after the final state matters, and a server that
		// forgets the closing bracket must not keep the caller waiting.
		if (terminal.has(result.data.status)) return;
	}
}

async function* endOnBreak(chunks: AsyncIterable<Uint8Array>, options: SnapshotOptions): AsyncGenerator<Uint8Array> {
	let sniffed = false;
	try {
		for await (const chunk of chunks) {
			if (!sniffed) {
				// A web page sent without a text/html type (http.ts checks the header): same verdict.
				const first = chunk.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
				if (first === 0x3c) throw new NotApiError(`${options.where}: the answer is a web page instead of JSON: this URL is not the API (check the base URL)`, 200);
				sniffed = first !== undefined;
			}
			yield chunk;
		}
	} catch (error) {
		if (error instanceof NotApiError) throw error;
		if (options.signal.aborted) {
			const reason: unknown = options.signal.reason;
			throw reason instanceof ApiError ? reason : new ApiError(`${options.where}: cancelled`);
		}
		if (error instanceof undiciErrors.BodyTimeoutError) {
			const idle = options.idleTimeoutMs >= 120_000 ? `${Math.round(options.idleTimeoutMs / 60_000)} minutes` : `${Math.round(options.idleTimeoutMs / 1000)} s`;
			throw new TimeoutError(`${options.where}: the start stream sent nothing for ${idle}; check \`agent-tui conversations\``);
		}
		// Anything else is a broken connection: end here and let the parser name the truncation.
	}
}
