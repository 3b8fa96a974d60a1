import {StringDecoder} from 'node:string_decoder';
import {ProtocolError} from './errors.js';

/**
 * Reads a JSON array that the server writes piece by piece (`[`, element, `,`, element, …, `]`)
 * and yields each element the moment its last byte arrives. Chunks may split anywhere, even
 * inside a string or a multi-byte character. One pass over the bytes: only the current
 * element's text is kept, so the cost is linear in the body.
 */
export async function* parseJsonArrayStream(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
	const decoder = new StringDecoder('utf8');
	let started = false;
	let finished = false;
	let depth = 0;
	let inString = false;
	let escaped = false;
	let current = '';
	let count = 0;

	const feed = function* (text: string): Generator<unknown> {
		for (const char of text) {
			if (finished) {
				if (!/\s/.test(char)) throw new ProtocolError('the start stream has data after its closing bracket');
				continue;
			}
			if (!started) {
				if (/\s/.test(char)) continue;
				if (char !== '[') throw new ProtocolError('the start stream is not a JSON array');
				started = true;
				continue;
			}
			if (depth === 0) {
				if (/\s/.test(char) || char === ',') continue;
				if (char === ']') {
					finished = true;
					continue;
				}
				if (char !== '{' && char !== '[') throw new ProtocolError(`unexpected "${char}" between start-task updates`);
			}
			current += char;
			if (inString) {
				if (escaped) escaped = false;
				else if (char === '\\') escaped = true;
				else if (char === '"') inString = false;
				continue;
			}
			if (char === '"') inString = true;
			else if (char === '{' || char === '[') depth++;
			else if (char === '}' || char === ']') {
				depth--;
				if (depth === 0) {
					let value: unknown;
					try {
						value = JSON.parse(current);
					} catch {
						throw new ProtocolError(`start-task update ${count + 1} is not valid JSON`);
					}
					current = '';
					count++;
					yield value;
				}
			}
		}
	};

	let broken = false;
	try {
		for await (const chunk of chunks) {
			yield* feed(typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk)));
		}
	} catch (error) {
		if (error instanceof ProtocolError) throw error;
		// The connection broke mid-body: the same situation for the user as a truncated array.
		broken = true;
	}
	if (!broken) yield* feed(decoder.end());
	if (!finished) {
		throw new ProtocolError(
			`the start stream ended before it finished (after ${count} update${count === 1 ? '' : 's'}): the server may have failed; check \`agent-tui conversations\``,
		);
	}
}
