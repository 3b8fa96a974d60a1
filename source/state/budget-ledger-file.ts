import {createHash} from 'node:crypto';
import {chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import {emptyLedger, type Ledger, parseLedger, serializeLedger} from './budget-ledger.js';

/**
 * Where the shared budget of one server and key lives, and the exclusive lock every update takes.
 * `$XDG_STATE_HOME/agent-tui/budget/<hash>` (budget-ledger.ts is what is in it): the hash is of
 * the server's origin and a fingerprint of the key, so the file names neither and holds neither.
 * The directory is 0700, the file 0600.
 *
 * The lock is a file created with `wx` (exclusive create: atomic on every local filesystem)
 * holding its owner's pid. A lock older than `staleLockMs`, or whose pid is gone, is taken over: a
 * client killed while holding it never stops the others for longer. Every update is a few
 * synchronous calls on a file of a few kilobytes, well under a millisecond; a lock that is busy
 * is not waited for here: the caller tries again a moment later, on a timer.
 */

/** A lock held longer than this was left by a client that died (an update takes well under a millisecond). */
export const staleLockMs = 2000;

export function budgetFileName(origin: string, key: string): string {
	const fingerprint = createHash('sha256').update(key).digest('hex');
	return createHash('sha256').update(`${origin}\n${fingerprint}`).digest('hex').slice(0, 32);
}

/** Whether process `pid` is alive on this machine (signal 0 checks without sending one). */
export function pidAlive(pid: number): boolean {
	if (pid === process.pid) return true;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists, but belongs to someone else.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export class LedgerFile {
	readonly path: string;
	readonly #lockPath: string;
	readonly #now: () => number;

	/** Creates the directory (0700) and checks it can be written; throws when it cannot. */
	constructor(dir: string, name: string, now: () => number = Date.now) {
		mkdirSync(dir, {recursive: true, mode: 0o700});
		if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
		this.path = join(dir, name);
		this.#lockPath = `${this.path}.lock`;
		this.#now = now;
		// Fails here, once, when the directory is not writable: the caller falls back and says so.
		const probe = `${this.path}.${process.pid}.probe`;
		writeFileSync(probe, '', {mode: 0o600});
		unlinkSync(probe);
	}

	/**
	 * Runs `update` on the ledger under the lock and writes it back: `{value}` with its result, or
	 * null when another client holds the lock right now (try again shortly).
	 */
	update<T>(update: (ledger: Ledger) => T): {value: T} | null {
		if (!this.#lock()) return null;
		try {
			let text = '';
			try {
				text = readFileSync(this.path, 'utf8');
			} catch {
				// No file yet: an empty ledger.
			}
			const ledger = text ? parseLedger(text) : emptyLedger();
			const result = update(ledger);
			// Whole or not at all: a reader never sees half a file.
			const temporary = `${this.path}.${process.pid}.tmp`;
			writeFileSync(temporary, serializeLedger(ledger), {mode: 0o600});
			renameSync(temporary, this.path);
			return {value: result};
		} finally {
			this.#unlock();
		}
	}

	#lock(): boolean {
		for (let attempt = 0; attempt < 2; attempt++) {
			try {
				const fd = openSync(this.#lockPath, 'wx', 0o600);
				writeSync(fd, String(process.pid));
				closeSync(fd);
				return true;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
				if (attempt > 0 || !this.#takeOverStale()) return false;
			}
		}

		return false;
	}

	/** Removes a lock whose owner is gone or that is older than `staleLockMs`; whether it did. */
	#takeOverStale(): boolean {
		try {
			const age = this.#now() - statSync(this.#lockPath).mtimeMs;
			const owner = Number(readFileSync(this.#lockPath, 'utf8'));
			const ownerGone = Number.isInteger(owner) && owner > 0 && !pidAlive(owner);
			if (age < staleLockMs && !ownerGone) return false;
			unlinkSync(this.#lockPath);
			return true;
		} catch {
			// Gone meanwhile (its owner finished): try again.
			return true;
		}
	}

	#unlock(): void {
		try {
			unlinkSync(this.#lockPath);
		} catch {
			// Taken over as stale by another client (we were stopped for seconds): theirs now.
		}
	}
}
