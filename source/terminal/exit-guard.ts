import type {DebugLog} from '../config/debug-log.js';
import {redactSecrets} from '../format/redact.js';
import {sanitizeLine} from '../format/sanitize.js';
import {publicMessage} from '../state/redact.js';
import {logPathText, stackOf} from './stray-output.js';
import type {TerminalScreen} from './terminal-screen.js';

/**
 * One way out of the dashboard, whatever the cause: `q`, ctrl-c, SIGTERM, SIGHUP, SIGINT, an
 * uncaught exception or an unhandled rejection. Each unmounts, restores the terminal (alternate
 * screen left, cursor shown) before anything is printed, prints a crash as one sanitized,
 * redacted line that says where its stack was written (the debug log), then closes streams,
 * clients and the simulator so the process can end.
 */

export type ExitGuardOptions = {
	screen: TerminalScreen;
	stderr: {write(chunk: string): unknown};
	/** Unmount the Ink app (synchronous; may throw if it already ended). */
	unmount(): void;
	/** Close the controller, clients, simulator. Bounded by `closeTimeoutMs`. */
	cleanup(): Promise<unknown>;
	/** Exact secrets to remove from a printed error. */
	secrets: readonly string[];
	/** Where a crash's stack is written. */
	log?: Pick<DebugLog, 'path' | 'write'>;
	closeTimeoutMs?: number;
	/** Defaults to `process`; tests pass an EventEmitter. */
	target?: NodeJS.EventEmitter;
};

export type ExitGuard = {
	/** Resolves with the exit code once everything is closed. */
	readonly done: Promise<number>;
	finish(code: number, error?: unknown): void;
	/** Install the signal and crash handlers (removed again on finish). */
	install(): void;
};

const signalCodes: Record<string, number> = {SIGHUP: 129, SIGINT: 130, SIGTERM: 143};

export function createExitGuard(options: ExitGuardOptions): ExitGuard {
	const target = options.target ?? process;
	let finishing = false;
	let resolve: (code: number) => void = () => undefined;
	const done = new Promise<number>((settle) => {
		resolve = settle;
	});
	const handlers: Array<[string, (...args: unknown[]) => void]> = [];

	const finish = (code: number, error?: unknown) => {
		if (finishing) return;
		finishing = true;
		try {
			options.unmount();
		} catch {
			// Already unmounted (Ink ended on its own error): restoring the screen is what matters.
		}
		options.screen.restore();
		if (error !== undefined) {
			options.log?.write('crash', redactSecrets(stackOf(error), options.secrets));
			const where = options.log ? ` (stack in ${logPathText(options.log.path)})` : '';
			try {
				options.stderr.write(`agent-tui: ${sanitizeLine(publicMessage(error, options.secrets))}${where}\n`);
			} catch {
				// stderr is gone too (SIGHUP).
			}
		}
		for (const [event, handler] of handlers) target.removeListener(event, handler);
		const timeout = new Promise((settle) => setTimeout(settle, options.closeTimeoutMs ?? 3000).unref());
		void Promise.race([options.cleanup().catch(() => undefined), timeout]).then(() => resolve(code));
	};

	const on = (event: string, handler: (...args: unknown[]) => void) => {
		handlers.push([event, handler]);
		target.on(event, handler);
	};

	return {
		done,
		finish,
		install() {
			for (const signal of Object.keys(signalCodes)) on(signal, () => finish(signalCodes[signal] ?? 1));
			on('uncaughtException', (error: unknown) => finish(1, error));
			on('unhandledRejection', (reason: unknown) => finish(1, reason));
			// Last line of defence: whatever ends the process, the terminal comes back.
			on('exit', () => options.screen.restore());
		},
	};
}
