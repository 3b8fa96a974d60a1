import type {DiffRow, FileDiff} from '../../format/file-diff.js';
import {padStartToWidth, truncateToWidth} from '../../format/width.js';
import type {ChangedFile} from '../../state/changes-session.js';
import {statusLetter} from '../../wire/schemas/git.js';
import {paint} from '../../boundary/ink-paint.js';

/**
 * The Changes view's rows as painted strings, one Text each: a diff row is its old and new line
 * numbers (dim), then the sign and the text in the row's colour, cut to the width. Only the rows
 * on screen are ever built, so a 5,000-line file costs the same per frame as a 50-line one.
 * Texts are already sanitized (format/file-diff.ts).
 */

const rowColor: Record<DiffRow['kind'], string | undefined> = {hunk: 'cyan', added: 'green', removed: 'red', context: undefined, 'no-newline': 'yellow'};
const rowSign: Record<DiffRow['kind'], string> = {hunk: '', added: '+', removed: '-', context: ' ', 'no-newline': ''};

/** Columns each line number takes: the widest number in the file. */
export function numberWidth(diff: FileDiff): number {
	let widest = 1;
	for (const row of diff.rows) widest = Math.max(widest, row.oldLine ?? 0, row.newLine ?? 0);
	return String(widest).length;
}

export function diffLine(row: DiffRow, digits: number, width: number): string {
	const numbers = `${padStartToWidth(row.oldLine === null ? '' : String(row.oldLine), digits)} ${padStartToWidth(row.newLine === null ? '' : String(row.newLine), digits)} `;
	const room = Math.max(0, width - numbers.length);
	const text = truncateToWidth(`${rowSign[row.kind]}${row.text}`, room);
	return paint(numbers, {dimColor: true}) + paint(text || ' ', {color: rowColor[row.kind], dimColor: row.kind === 'no-newline'});
}

export const statusColor: Record<string, string> = {A: 'green', D: 'red', M: 'yellow', R: 'cyan', '?': 'magenta'};

/** `+12 -3` once the file's diff is read, `…` while it is read, `?` before (reading it costs a request). */
export function countsLabel(file: ChangedFile): string {
	switch (file.diff.state) {
		case 'ready':
			return `+${file.diff.diff.added} -${file.diff.diff.removed}`;
		case 'loading':
			return '…';
		case 'error':
			return '!';
		default:
			return '?';
	}
}

export function fileLetter(file: Pick<ChangedFile, 'status'>): string {
	return statusLetter(file.status);
}
