import {execFileSync, spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {eventually} from './eventually.js';

/**
 * Drives the real CLI in a real terminal: tmux on a private socket (`-L`, no user config), a
 * fixed size, keys via send-keys, the screen via capture-pane, polled instead of slept.
 */

export function tmuxAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
	return spawnSync('tmux', ['-V'], {encoding: 'utf8', env}).status === 0;
}

/** CI as the usual variable says it (GitHub Actions, GitLab and most others set `CI=true`). */
const onCi = (env: NodeJS.ProcessEnv) => env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';

/**
 * The skip option of every tmux test: false where tmux runs; a reason to skip on a developer's
 * machine without it. On CI a missing tmux throws instead (the test file fails): a run that
 * skipped every end-to-end test must not pass.
 */
export function tmuxSkipReason(env: NodeJS.ProcessEnv = process.env): false | string {
	if (tmuxAvailable(env)) return false;
	if (onCi(env)) throw new Error('tmux is not installed and CI is set: the end-to-end tests need it (apt-get install tmux); they fail rather than skip on CI');
	return 'tmux is not installed: the end-to-end tests need it (apt-get install tmux)';
}

/** `describe`'s or `test`'s skip option for the tmux tests (see tmuxSkipReason). */
export const tmuxSkip = tmuxSkipReason();

export type TmuxSession = {
	socket: string;
	target: string;
	/**
	 * The visible screen as text (no colours), once it holds still: a frame is one write, but tmux
	 * reads the terminal in pieces, so a capture can land between them and show half a frame (a
	 * row cut after its title, every line below it blank: e2e-data-clock failed on that once, in
	 * CI on Node 22). Two captures a moment apart that agree are taken as a whole frame.
	 */
	capture(): string;
	/** One capture-pane, whatever state the frame is in. */
	rawCapture(): string;
	/** tmux key names (`Enter`, `Escape`, `C-c`, `Tab`) or literal text with `literal`. */
	send(keys: string | string[], options?: {literal?: boolean}): void;
	waitFor(predicate: (screen: string) => boolean, message: string, timeoutMs?: number, pollMs?: number): Promise<string>;
	/** `{dead, status}` of the pane (remain-on-exit keeps it after the program ends). */
	paneState(): {dead: boolean; status: number | null};
	resize(columns: number, rows: number): void;
	/** Copies what the program writes from now on into `file` (tmux pipe-pane); null stops. */
	pipe(file: string | null): void;
	kill(): void;
};

export type StartOptions = {
	columns: number;
	rows: number;
	/** The shell command line tmux runs in the pane. */
	command: string;
	cwd?: string;
};

/** Time between the two captures that must agree, and how many tries before giving up on stillness. */
const settleGapMs = 30;
const settleTries = 8;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A synchronous pause: capture() is synchronous and is called from predicates' loops. */
function pause(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}

export function startTmux(options: StartOptions): TmuxSession {
	const socket = `agent-tui-e2e-${process.pid}-${randomBytes(4).toString('hex')}`;
	const target = 'app';
	const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8', cwd: options.cwd});
	tmux('-f', '/dev/null', 'new-session', '-d', '-s', target, '-x', String(options.columns), '-y', String(options.rows), options.command);
	// Keep the pane after the program exits, to read its exit status and the restored screen.
	tmux('set-option', '-t', target, 'remain-on-exit', 'on');
	const session: TmuxSession = {
		socket,
		target,
		rawCapture: () => tmux('capture-pane', '-p', '-t', target),
		capture() {
			let last = session.rawCapture();
			for (let tries = 0; tries < settleTries; tries++) {
				pause(settleGapMs);
				const next = session.rawCapture();
				if (next === last) return next;
				last = next;
			}
			// Still changing (a stream drawing several frames a second): the newest, as it is.
			return last;
		},
		send(keys, sendOptions = {}) {
			const list = Array.isArray(keys) ? keys : [keys];
			tmux('send-keys', '-t', target, ...(sendOptions.literal ? ['-l'] : []), ...list);
		},
		async waitFor(predicate, message, timeoutMs = 15_000, pollMs = 100) {
			const screen = () => {
				try {
					return session.capture();
				} catch {
					return '';
				}
			};
			return eventually(screen, `${message} on screen`, {until: predicate, timeoutMs, pollMs, detail: (last) => `Screen:\n${last}`});
		},
		paneState() {
			const [dead, status] = tmux('display-message', '-p', '-t', target, '#{pane_dead} #{pane_dead_status}').trim().split(' ');
			return {dead: dead === '1', status: status ? Number(status) : null};
		},
		resize(columns, rows) {
			tmux('resize-window', '-t', target, '-x', String(columns), '-y', String(rows));
		},
		pipe(file) {
			if (file === null) tmux('pipe-pane', '-t', target);
			else tmux('pipe-pane', '-t', target, `cat > ${shellQuote(file)}`);
		},
		kill() {
			try {
				tmux('kill-server');
			} catch {
				// Already gone.
			}
		},
	};
	return session;
}

/**
 * A real bracketed paste: tmux wraps the text in ESC[200~ … ESC[201~ (-p) because the dashboard
 * asked for bracketed paste, as a terminal does.
 */
export function bracketedPaste(tmux: TmuxSession, text: string): void {
	const run = (...args: string[]) => execFileSync('tmux', ['-L', tmux.socket, ...args], {encoding: 'utf8'});
	run('set-buffer', '-b', 'e2e', text);
	run('paste-buffer', '-p', '-d', '-b', 'e2e', '-t', tmux.target);
}

/** Quote for a POSIX shell command line. */
export function shellQuote(value: string): string {
	return `'${value.replaceAll("'", `'\\''`)}'`;
}
