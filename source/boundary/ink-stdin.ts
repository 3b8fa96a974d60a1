/**
 * The stdin Ink reads from, with one guarantee Ink 8 does not give: input never stops. Ink's
 * parser (build/input-parser.js) holds everything after a bracketed paste's start marker
 * (ESC[200~) until the end marker (ESC[201~) arrives, with no time limit, so a lost end marker,
 * or the start marker sent on its own (a program writing it, `tmux send-keys`), would swallow
 * every key after it and the dashboard would stop answering. Here a paste still open after
 * `timeoutMs` is ended: the end marker is handed to Ink as if the terminal had sent it, and what
 * was held is delivered as a paste (text for a field, nothing in a list), as a terminal would.
 *
 * Ink reads with a 'readable' listener and read() until null (build/components/App.js); this
 * wraps read() and nothing else, so raw mode, encoding, ref/unref are the real stream's.
 */

const pasteStart = '\u001B[200~';
const pasteEnd = '\u001B[201~';

export type GuardedStdin = {stream: NodeJS.ReadStream; dispose(): void};

export function guardStdin(stdin: NodeJS.ReadStream, options: {timeoutMs?: number} = {}): GuardedStdin {
	const timeoutMs = options.timeoutMs ?? 1000;
	const injected: string[] = [];
	let inPaste = false;
	// The end of the previous chunk: a marker may be split across reads.
	let carry = '';
	let timer: ReturnType<typeof setTimeout> | undefined;

	const endHeldPaste = () => {
		timer = undefined;
		if (!inPaste) return;
		inPaste = false;
		carry = '';
		injected.push(pasteEnd);
		stdin.emit('readable');
	};

	const watch = (chunk: string) => {
		const text = carry + chunk;
		const start = text.lastIndexOf(pasteStart);
		const end = text.lastIndexOf(pasteEnd);
		if (start > end) inPaste = true;
		else if (end > start) inPaste = false;
		carry = text.slice(-(pasteStart.length - 1));
		if (inPaste) timer ??= setTimeout(endHeldPaste, timeoutMs);
		else if (timer !== undefined) {
			clearTimeout(timer);
			timer = undefined;
		}
	};

	const read = (...args: unknown[]): unknown => {
		if (injected.length > 0) return injected.shift();
		const chunk: unknown = (stdin.read as (...args: unknown[]) => unknown)(...args);
		if (typeof chunk === 'string') watch(chunk);
		else if (chunk instanceof Uint8Array) watch(Buffer.from(chunk).toString('utf8'));
		return chunk;
	};

	const stream = new Proxy(stdin, {
		get(target, property) {
			if (property === 'read') return read;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {
		stream,
		dispose() {
			if (timer !== undefined) clearTimeout(timer);
			timer = undefined;
		},
	};
}
