import {execFileSync, spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {eventually} from './eventually.js';

/**
 * Drives the real CLI in a real terminal: tmux on a private socket (`-L`, no user config), a
 * fixed size, keys via send-keys, the screen via capture-pane, polled instead of slept.
 */

export function tmuxAvailable(): boolean {
	return spawnSync('tmux', ['-V'], {encoding: 'utf8'}).status === 0;
}

export type TmuxSession = {
	socket: string;
	target: string;
	/** The visible screen as text (no colours). */
	capture(): string;
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
		capture: () => tmux('capture-pane', '-p', '-t', target),
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

/** Quote for a POSIX shell command line. */
export function shellQuote(value: string): string {
	return `'${value.replaceAll("'", `'\\''`)}'`;
}
