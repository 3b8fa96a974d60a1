import {createHash} from 'node:crypto';
import {chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {stateDir} from '../config/paths.js';
import {normalizeId} from '../wire/ids.js';
import type {Snooze} from './snoozes.js';

/**
 * Snoozes on disk, one file per server: `$XDG_STATE_HOME/agent-tui/snoozes/<fingerprint>.json`,
 * the fingerprint being a hash of the server's address (never its key), so two profiles of one
 * server share their snoozes and two servers never do. The directory is 0700 and the file 0600:
 * conversation ids are the owner's business. Written whole to a temporary file and renamed, so a
 * crash mid-write leaves the previous file. A file that cannot be read is treated as empty (the
 * snoozes are a convenience, never a reason not to start); entries that do not parse are dropped.
 */

/** The server's address, lower-cased and without a trailing slash, hashed: the file's name. */
export function serverFingerprint(baseUrl: string): string {
	const normal = baseUrl.trim().replace(/\/+$/, '').toLowerCase();
	return createHash('sha256').update(normal).digest('hex').slice(0, 16);
}

export function snoozeFilePath(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
	return join(stateDir(env), 'snoozes', `${serverFingerprint(baseUrl)}.json`);
}

function parseSnooze(value: unknown): Snooze | null {
	if (typeof value !== 'object' || value === null) return null;
	const record = value as Record<string, unknown>;
	const at = typeof record.at === 'number' && Number.isFinite(record.at) ? record.at : 0;
	if (record.until === 'change' && typeof record.signature === 'string') return {until: 'change', signature: record.signature, at};
	if (typeof record.until === 'number' && Number.isFinite(record.until)) return {until: record.until, at};
	return null;
}

export function loadSnoozes(path: string): Map<string, Snooze> {
	const entries = new Map<string, Snooze>();
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(path, 'utf8'));
	} catch {
		return entries;
	}
	const snoozes = typeof parsed === 'object' && parsed !== null ? (parsed as {snoozes?: unknown}).snoozes : undefined;
	if (typeof snoozes !== 'object' || snoozes === null) return entries;
	for (const [id, value] of Object.entries(snoozes)) {
		const snooze = parseSnooze(value);
		if (snooze && /^[0-9a-f-]{8,64}$/i.test(id)) entries.set(normalizeId(id), snooze);
	}
	return entries;
}

export function saveSnoozes(path: string, entries: ReadonlyMap<string, Snooze>): void {
	mkdirSync(dirname(path), {recursive: true, mode: 0o700});
	// mkdirSync's mode applies only to what it creates: an existing, wider directory is narrowed.
	chmodSync(dirname(path), 0o700);
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, `${JSON.stringify({version: 1, snoozes: Object.fromEntries(entries)}, null, 1)}\n`, {mode: 0o600});
	chmodSync(temporary, 0o600);
	renameSync(temporary, path);
}
