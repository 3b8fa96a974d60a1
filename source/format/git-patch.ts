import {createHash} from 'node:crypto';
import {diffHunks, hunkHeader} from './file-diff.js';

/**
 * A patch in git's own format for the files an agent changed, so that `git apply` on the
 * original files gives the modified files byte for byte: `diff --git` headers, `index` lines
 * with the blobs' hashes, `new file mode` / `deleted file mode`, `--- /dev/null`, `\ No newline
 * at end of file`, paths quoted the way git quotes them (core.quotePath: control characters,
 * `"`, `\` and every non-ASCII byte, as C escapes and octal) and the tab git puts after a
 * `---`/`+++` name holding a space. The hunks are jsdiff's `structuredPatch` hunks (file-diff.ts).
 * Pure: the texts go in unchanged; a caller printing to a terminal sanitizes the result.
 */

export type PatchFile = {
	/** ADDED, DELETED, UPDATED, MOVED, or something newer: the texts decide what is written. */
	status: string;
	/** Relative to the repository. */
	path: string;
	original: string | null;
	modified: string | null;
};

const mode = '100644';
const zeroHash = '0000000';

/** Git's spelling of a path in a patch header or a --stat line: as is, or C-quoted. */
export function quoteGitPath(path: string): string {
	if (!/[\u0000-\u001f\u007f"\\\u0080-\uffff]/.test(path)) return path;
	let quoted = '"';
	for (const byte of Buffer.from(path, 'utf8')) {
		const escape = cEscapes[byte];
		if (escape) quoted += escape;
		else if (byte >= 0x20 && byte < 0x7f) quoted += String.fromCharCode(byte);
		else quoted += `\\${byte.toString(8).padStart(3, '0')}`;
	}
	return `${quoted}"`;
}

const cEscapes: Record<number, string> = {0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\'};

/** `git hash-object` of a text: the blob id, abbreviated as the `index` line shows it. */
export function blobHash(text: string): string {
	const bytes = Buffer.from(text, 'utf8');
	return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex').slice(0, 7);
}

/** The kind of change the texts say it is (a server status can be newer than we know). */
export function changeKind(file: Pick<PatchFile, 'original' | 'modified'>): 'added' | 'deleted' | 'updated' | 'none' {
	if (file.original === null && file.modified === null) return 'none';
	if (file.original === null) return 'added';
	if (file.modified === null) return 'deleted';
	return file.original === file.modified ? 'none' : 'updated';
}

/** One file's part of the patch; empty when nothing changed. */
export function filePatch(file: PatchFile): string {
	const kind = changeKind(file);
	if (kind === 'none') return '';
	const a = `a/${file.path}`;
	const b = `b/${file.path}`;
	const lines = [`diff --git ${quoteGitPath(a)} ${quoteGitPath(b)}`];
	if (kind === 'added') lines.push(`new file mode ${mode}`, `index ${zeroHash}..${blobHash(file.modified!)}`);
	else if (kind === 'deleted') lines.push(`deleted file mode ${mode}`, `index ${blobHash(file.original!)}..${zeroHash}`);
	else lines.push(`index ${blobHash(file.original!)}..${blobHash(file.modified!)} ${mode}`);
	const hunks = diffHunks(file.original, file.modified);
	// An empty file added or deleted has no hunks, and git writes no ---/+++ lines for it.
	if (hunks.length > 0) {
		lines.push(`--- ${kind === 'added' ? '/dev/null' : headerName(a)}`, `+++ ${kind === 'deleted' ? '/dev/null' : headerName(b)}`);
		for (const hunk of hunks) lines.push(hunkHeader(hunk), ...hunk.lines);
	}
	return `${lines.join('\n')}\n`;
}

/** Git ends a ---/+++ name that holds a space with a tab, so the name's end is unambiguous. */
function headerName(name: string): string {
	return quoteGitPath(name) + (name.includes(' ') ? '\t' : '');
}

/** The whole patch, files in the order given. */
export function gitPatch(files: readonly PatchFile[]): string {
	return files.map(filePatch).join('');
}

export type StatEntry = {path: string; added: number; removed: number};

/** `git diff --stat`: one line per file with a +/- bar scaled to `width` columns, then the totals. */
export function gitStat(entries: readonly StatEntry[], width = 80): string {
	if (entries.length === 0) return '';
	const names = entries.map((entry) => quoteGitPath(entry.path));
	const nameWidth = Math.max(...names.map((name) => [...name].length));
	const counts = entries.map((entry) => entry.added + entry.removed);
	const countWidth = Math.max(...counts.map((count) => String(count).length));
	const most = Math.max(...counts);
	// ` name | count bar`: what is left of the width is the bar's.
	const barWidth = Math.max(6, width - nameWidth - countWidth - 5);
	const scale = (value: number) => (most <= barWidth || value === 0 ? value : Math.max(1, Math.round((value * barWidth) / most)));
	const lines = entries.map((entry, index) => {
		const name = names[index]!;
		const pad = ' '.repeat(nameWidth - [...name].length);
		const count = String(counts[index]).padStart(countWidth);
		const bar = '+'.repeat(scale(entry.added)) + '-'.repeat(scale(entry.removed));
		return ` ${name}${pad} | ${count}${bar ? ` ${bar}` : ''}`;
	});
	const added = entries.reduce((sum, entry) => sum + entry.added, 0);
	const removed = entries.reduce((sum, entry) => sum + entry.removed, 0);
	const parts = [`${entries.length} file${entries.length === 1 ? '' : 's'} changed`];
	if (added > 0) parts.push(`${added} insertion${added === 1 ? '' : 's'}(+)`);
	if (removed > 0) parts.push(`${removed} deletion${removed === 1 ? '' : 's'}(-)`);
	lines.push(` ${parts.join(', ')}`);
	return `${lines.join('\n')}\n`;
}
