import {statSync} from 'node:fs';

/**
 * Credentials on disk should be private to their owner. A readable key file is warned about, not
 * refused (docs/security-checklist.md §4: refusing locks people out on shared CI volumes and
 * odd filesystems; helm#13320). Skipped on Windows, where POSIX mode bits mean nothing.
 */

export type Warn = (message: string) => void;

/** Group or other may read or write the file. */
const sharedBits = 0o066;

export function sharedMode(path: string): number | null {
	if (process.platform === 'win32') return null;
	try {
		const mode = statSync(path).mode & 0o777;
		return mode & sharedBits ? mode : null;
	} catch {
		return null;
	}
}

/** Warns once per process per file (the warner dedupes) when `path` is not private. */
export function warnIfShared(path: string, what: string, warn: Warn): void {
	const mode = sharedMode(path);
	if (mode === null) return;
	warn(`${what} ${path} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${path}`);
}

/** A warner that prints each distinct message once, however many times it is reported. */
export function onceWarner(write: (line: string) => void): Warn {
	const seen = new Set<string>();
	return (message) => {
		if (seen.has(message)) return;
		seen.add(message);
		write(`agent-tui: warning: ${message}\n`);
	};
}
