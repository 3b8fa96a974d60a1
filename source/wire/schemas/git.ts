import {z} from 'zod';
import {openEnum, type Open} from './common.js';

/**
 * The agent server's git endpoints (docs/service-behaviour.md §3.1): what changed in a workspace
 * directory and the two whole texts of one file. A status the server invents later is kept as
 * its raw string (shown as unknown); a file without a path cannot be shown and is flagged.
 */

export const gitChangeStatuses = ['ADDED', 'DELETED', 'UPDATED', 'MOVED'] as const;
export type GitChangeStatus = Open<(typeof gitChangeStatuses)[number]>;

export const gitChangeSchema = z.looseObject({
	status: openEnum(gitChangeStatuses),
	path: z.string().min(1),
});
export type GitChange = {status: GitChangeStatus; path: string};

/** `null` on a side means the file does not exist there (added: no original; deleted: no modified). */
export const gitDiffSchema = z.looseObject({
	original: z.string().nullish().transform((value) => value ?? null),
	modified: z.string().nullish().transform((value) => value ?? null),
});
export type GitDiff = {original: string | null; modified: string | null};

/** A status letter as git prints it: A, D, M, R; `?` for a status we do not know. */
export function statusLetter(status: GitChangeStatus): string {
	switch (status) {
		case 'ADDED':
			return 'A';
		case 'DELETED':
			return 'D';
		case 'UPDATED':
			return 'M';
		case 'MOVED':
			return 'R';
		default:
			return '?';
	}
}
