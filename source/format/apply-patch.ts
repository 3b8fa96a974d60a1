import {plural} from './event-values.js';
import {formatCount} from './numbers.js';

/**
 * What an `apply_patch` call changes, read from its patch text: the files and the lines added and
 * removed in each. The format is the one the SDK's parser reads (openhands-tools/openhands/tools/
 * apply_patch/core.py, after OpenAI's GPT-5.1 guide):
 *
 *     *** Begin Patch
 *     *** Update File: src/app.py        (then optional "*** Move to: new/path.py")
 *     @@ def handler                       (section headers; " " context, "-" removed, "+" added)
 *     *** Add File: tests/test_app.py      (every line "+")
 *     *** Delete File: old.py
 *     *** End of File / *** End Patch
 *
 * One pass over the text, done once per event (the summaries are cached): a 5 MB patch costs one
 * scan. At most `maxFiles` files are kept; the rest are counted.
 */

export type PatchOperation = 'add' | 'update' | 'delete';

export type PatchFile = {path: string; operation: PatchOperation; moveTo: string | null; added: number; removed: number};

export type PatchSummary = {
	files: PatchFile[];
	/** Files beyond `maxFiles`, counted but not kept. */
	moreFiles: number;
	added: number;
	removed: number;
};

const maxFiles = 200;

const headers: Array<[string, PatchOperation]> = [
	['*** Update File: ', 'update'],
	['*** Add File: ', 'add'],
	['*** Delete File: ', 'delete'],
];

export function readPatch(text: string): PatchSummary {
	const summary: PatchSummary = {files: [], moreFiles: 0, added: 0, removed: 0};
	let current: PatchFile | null = null;
	let start = 0;
	while (start <= text.length) {
		let end = text.indexOf('\n', start);
		if (end === -1) end = text.length;
		// A CRLF patch reads the same.
		const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
		start = end + 1;
		if (line.startsWith('***')) {
			const header = headers.find(([prefix]) => line.startsWith(prefix));
			if (header) {
				current = {path: line.slice(header[0].length).trim(), operation: header[1], moveTo: null, added: 0, removed: 0};
				if (summary.files.length < maxFiles) summary.files.push(current);
				else summary.moreFiles++;
			} else if (line.startsWith('*** Move to: ') && current) {
				current.moveTo = line.slice('*** Move to: '.length).trim();
			}
			continue;
		}
		if (!current) continue;
		if (line.startsWith('+')) {
			current.added++;
			summary.added++;
		} else if (line.startsWith('-')) {
			current.removed++;
			summary.removed++;
		}
	}

	return summary;
}

/** `+12 -3` (both always, so columns of rows read alike). */
export function lineCounts(added: number, removed: number): string {
	return `+${formatCount(added)} -${formatCount(removed)}`;
}

/** One file in a few words: `src/app.py +10 -3`, `tests/test_app.py (new, +20)`, `old.py (deleted)`, `a.py → b.py +1 -1`. */
export function patchFileWords(file: PatchFile): string {
	if (file.operation === 'delete') return `${file.path} (deleted)`;
	if (file.operation === 'add') return `${file.path} (new, +${formatCount(file.added)})`;
	const path = file.moveTo ? `${file.path} → ${file.moveTo}` : file.path;
	return `${path} ${lineCounts(file.added, file.removed)}`;
}

/**
 * The row of an apply_patch call: `patch src/app.py +10 -3` for one file, `patch 3 files +24 -5:
 * src/app.py, tests/test_app.py (new), old.py (deleted)` for several. A patch that names no file
 * says so (the SDK will answer it with an error).
 */
export function patchRow(summary: PatchSummary): string {
	const count = summary.files.length + summary.moreFiles;
	if (count === 0) return 'patch (names no file)';
	if (count === 1) return `patch ${patchFileWords(summary.files[0]!)}`;
	const names = summary.files.map((file) => (file.operation === 'add' ? `${file.path} (new)` : file.operation === 'delete' ? `${file.path} (deleted)` : file.moveTo ? `${file.path} → ${file.moveTo}` : file.path));
	return `patch ${plural(count, 'file')} ${lineCounts(summary.added, summary.removed)}: ${names.join(', ')}${summary.moreFiles > 0 ? ', …' : ''}`;
}
