import {appendFileSync, chmodSync, mkdirSync, renameSync, statSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {configDir} from './paths.js';

/**
 * The debug log: where text that must not reach the terminal while the dashboard draws goes
 * instead (Node warnings, a library's stray console.error or stderr writes). One file in the
 * config directory, private to its owner (0600, like the config file: a message may quote a URL
 * or a server's answer). Created on the first line written, so a clean run leaves no file; a log
 * over `maxBytes` when first written to is moved aside to `debug.log.1`, so it never grows
 * without bound across runs. Lines are written synchronously: they are rare, and a crash right
 * after one must not lose it.
 */

export type DebugLog = {
	readonly path: string;
	/** Appends one entry (a timestamp and its origin in front); never throws. */
	write(origin: string, text: string): void;
};

export function debugLogPath(env: NodeJS.ProcessEnv = process.env): string {
	return join(configDir(env), 'debug.log');
}

export function openDebugLog(path: string = debugLogPath(), options: {maxBytes?: number; now?: () => Date} = {}): DebugLog {
	const maxBytes = options.maxBytes ?? 1024 * 1024;
	const now = options.now ?? (() => new Date());
	let prepared = false;
	const prepare = () => {
		prepared = true;
		mkdirSync(dirname(path), {recursive: true, mode: 0o700});
		try {
			if (statSync(path).size > maxBytes) renameSync(path, `${path}.1`);
		} catch {
			// No log yet.
		}
	};
	return {
		path,
		write(origin, text) {
			try {
				if (!prepared) prepare();
				const body = text.endsWith('\n') ? text : `${text}\n`;
				appendFileSync(path, `${now().toISOString()} ${origin}: ${body}`, {mode: 0o600});
				// appendFileSync's mode applies only to a new file: an older, wider one is narrowed.
				chmodSync(path, 0o600);
			} catch {
				// A read-only home or a full disk: losing a debug line must not break the dashboard.
			}
		},
	};
}
