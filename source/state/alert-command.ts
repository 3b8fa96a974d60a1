import {spawn} from 'node:child_process';

/**
 * `--alert-command CMD`: each alert runs CMD through `/bin/sh -c` with the alert as one JSON
 * object on its stdin (then EOF), for ntfy, notify-send or a chat hook. The dashboard never waits
 * for it: the command runs beside it, with its stdout and stderr kept off the screen; it is
 * stopped (its whole process group) when it outlives `timeoutMs`, and anything that goes wrong
 * (cannot start, exit status, a signal, the timeout, too many still running) is one line in the
 * debug log, never an error on screen or a blocked key.
 */

export type AlertPayload = {
	/** The conversation (32 hex), or null for a coalesced alert about several. */
	conversation_id: string | null;
	title: string | null;
	/** What needs the person, in words: `approve: $ rm -rf build/ …`, `error · rate limit · retryable`. */
	reason: string;
	/** What changed (`waiting_for_confirmation`, `error`, `stuck`, `sandbox_error`; spending without progress is a flag, not a change, and raises no alert), or `several`. */
	kind: string;
	/** ISO time the change was seen. */
	time: string;
	/** The server's label (profile or host). */
	server: string;
	/** A coalesced alert: every conversation it stands for. */
	alerts?: Array<{conversation_id: string; title: string; reason: string; kind: string}>;
};

export type AlertCommandOptions = {
	command: string;
	/** How long a run may take before it is stopped (default 10 s). */
	timeoutMs?: number;
	/** Runs at once at most; an alert beyond them is skipped and logged (default 4). */
	maxRunning?: number;
	/** The debug log (config/debug-log.ts). */
	log(origin: string, text: string): void;
};

export type AlertCommand<P extends {reason: string | null} = AlertPayload> = {
	/** The dashboard's alert, or another object with a reason (`watch --alert-command` passes its cause transitions). */
	run(payload: P): void;
	/** Runs still going (tests wait for 0). */
	running(): number;
	/** Stops every run still going (the dashboard is closing). */
	close(): void;
};

const origin = 'alert-command';
/** The part of the command's stderr kept for the log line. */
const keptStderr = 2000;

export function alertCommand<P extends {reason: string | null} = AlertPayload>(options: AlertCommandOptions): AlertCommand<P> {
	const timeoutMs = options.timeoutMs ?? 10_000;
	const maxRunning = options.maxRunning ?? 4;
	const live = new Set<{stop(): void}>();
	const log = (text: string) => options.log(origin, text);

	const run = (payload: P) => {
		if (live.size >= maxRunning) {
			log(`skipped the alert "${payload.reason ?? 'cleared'}": ${live.size} runs of the alert command are still going`);
			return;
		}
		let child: ReturnType<typeof spawn>;
		try {
			// Its own process group (detached), so a timeout stops what it started too (curl, a pipe).
			child = spawn('/bin/sh', ['-c', options.command], {stdio: ['pipe', 'ignore', 'pipe'], detached: true});
		} catch (error) {
			log(`cannot start: ${(error as Error).message}`);
			return;
		}
		let stderr = '';
		let timedOut = false;
		const killGroup = (signal: NodeJS.Signals) => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, signal);
			} catch {
				// Already gone.
			}
		};
		const entry = {
			stop: () => killGroup('SIGKILL'),
		};
		live.add(entry);
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup('SIGTERM');
			// One that ignores SIGTERM is killed a second later.
			setTimeout(() => killGroup('SIGKILL'), 1000).unref();
		}, timeoutMs);
		timer.unref();
		child.stderr?.setEncoding('utf8');
		child.stderr?.on('data', (chunk: string) => {
			if (stderr.length < keptStderr) stderr += chunk.slice(0, keptStderr - stderr.length);
		});
		child.on('error', (error) => {
			clearTimeout(timer);
			live.delete(entry);
			log(`cannot run "${options.command}": ${error.message}`);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			live.delete(entry);
			const said = stderr.trim() ? `; stderr: ${stderr.trim().replaceAll(/\s+/g, ' ')}` : '';
			if (timedOut) log(`"${options.command}" took longer than ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`} and was stopped${said}`);
			else if (signal) log(`"${options.command}" ended by ${signal}${said}`);
			else if (code !== 0) log(`"${options.command}" exited ${code}${said}`);
		});
		// A command that does not read its stdin closes the pipe early: that is its choice, not a failure.
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(`${JSON.stringify(payload)}\n`);
		// The dashboard's exit never waits for a notifier.
		child.unref();
	};

	return {
		run,
		running: () => live.size,
		close() {
			for (const entry of live) entry.stop();
			live.clear();
		},
	};
}
