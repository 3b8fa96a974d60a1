import {format} from 'node:util';
import type {DebugLog} from '../config/debug-log.js';
import {redactSecrets} from '../format/redact.js';

/**
 * While the dashboard draws, nothing but the frame may reach the terminal: a line written to
 * stderr lands in the middle of the frame and shifts it until the next full repaint. Node's own
 * warnings (`MaxListenersExceededWarning`, deprecations), and a library's console.* calls or
 * stderr writes, are taken into the debug log instead, and the dashboard shows a notice saying so.
 *
 * `restore()` puts everything back exactly as it was (Node's warning printer, console, stderr),
 * so a fatal error printed after the dashboard has closed reaches the user. It is idempotent and
 * synchronous: the exit paths call it right where they leave the alternate screen.
 */

export type StrayNotice = {text: string; count: number; at: number};

export type StrayOutput = {
	/** The latest captured line and how many there were in all, or null while none. */
	latest(): StrayNotice | null;
	/** Writes an exception's stack to the debug log (secrets removed); it is not counted as captured output. */
	logError(origin: string, error: unknown): void;
	/** Called (after the current task, never inside a render) when something was captured. */
	subscribe(listener: () => void): () => void;
	restore(): void;
};

type WarningTarget = Pick<NodeJS.Process, 'listeners' | 'removeAllListeners' | 'on' | 'removeListener'>;
type Writable = {write: (...args: never[]) => boolean};

export type CaptureOptions = {
	log: DebugLog;
	/** Exact secrets to remove before anything is logged. */
	secrets?: readonly string[];
	/** Defaults to `process`, `console` and `process.stderr`. */
	process?: WarningTarget;
	console?: Console;
	stderr?: Writable;
	now?: () => number;
};

const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

export function captureStrayOutput(options: CaptureOptions): StrayOutput {
	const target = options.process ?? process;
	const sink = options.console ?? console;
	const stderr = options.stderr ?? process.stderr;
	const now = options.now ?? Date.now;
	const secrets = options.secrets ?? [];
	const listeners = new Set<() => void>();
	let latest: StrayNotice | null = null;
	let announcing = false;

	const capture = (origin: string, text: string) => {
		const clean = redactSecrets(text, secrets);
		options.log.write(origin, clean);
		const first = clean.split('\n').find((line) => line.trim().length > 0)?.trim() ?? origin;
		latest = {text: first, count: (latest?.count ?? 0) + 1, at: now()};
		// console.error can be called from inside a React render: tell the view afterwards.
		if (announcing) return;
		announcing = true;
		setImmediate(() => {
			announcing = false;
			for (const listener of listeners) listener();
		});
	};

	// Node prints warnings from a 'warning' listener of its own; it is set aside, not lost.
	const printers = target.listeners('warning') as Array<(warning: Error) => void>;
	target.removeAllListeners('warning');
	const onWarning = (warning: Error) => capture('warning', `${warning.name}: ${warning.message}${warning.stack ? `\n${warning.stack}` : ''}`);
	target.on('warning', onWarning);

	const savedConsole = consoleMethods.map((name) => [name, Object.getOwnPropertyDescriptor(sink, name)] as const);
	for (const name of consoleMethods) {
		sink[name] = (...args: unknown[]) => capture(`console.${name}`, format(...args));
	}

	const ownWrite = Object.getOwnPropertyDescriptor(stderr, 'write');
	stderr.write = (chunk: unknown, encoding?: unknown, callback?: unknown) => {
		capture('stderr', typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
		const done = typeof encoding === 'function' ? encoding : callback;
		if (typeof done === 'function') queueMicrotask(() => done());
		return true;
	};

	let restored = false;
	return {
		latest: () => latest,
		logError(origin, error) {
			options.log.write(origin, redactSecrets(stackOf(error), secrets));
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		restore() {
			if (restored) return;
			restored = true;
			target.removeListener('warning', onWarning);
			for (const printer of printers) target.on('warning', printer);
			for (const [name, descriptor] of savedConsole) {
				if (descriptor) Object.defineProperty(sink, name, descriptor);
				else delete (sink as unknown as Record<string, unknown>)[name];
			}

			if (ownWrite) Object.defineProperty(stderr, 'write', ownWrite);
			else delete (stderr as Partial<Writable>).write;
			listeners.clear();
		},
	};
}

/** An error's stack as text (its message alone when it has none). */
export function stackOf(error: unknown): string {
	if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
	return String(error);
}

/** The debug log's path as a person types it (`~/…` under the home directory). */
export function logPathText(logPath: string, home = process.env.HOME): string {
	return home && logPath.startsWith(`${home}/`) ? `~${logPath.slice(home.length)}` : logPath;
}

/** The notice line's words for what was captured. */
export function strayNoticeText(notice: StrayNotice, logPath: string, home = process.env.HOME): string {
	const what = notice.count === 1 ? 'Captured output' : `Captured output (${notice.count} in all)`;
	return `${what}: ${notice.text} (in ${logPathText(logPath, home)})`;
}
