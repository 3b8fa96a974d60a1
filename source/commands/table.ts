import {sanitizeLine} from '../format/sanitize.js';
import {cellWidth, padToWidth, truncateToWidth} from '../format/width.js';

/**
 * Aligned plain-text tables for the human form of the list commands. Every cell is sanitized
 * (titles and repositories come from users and agents: no escape sequences reach the terminal)
 * and measured in terminal cells, so CJK and emoji keep the columns straight. No colour: status
 * words are chosen to read on their own.
 */
export type Column<T> = {
	header: string;
	value: (row: T) => string;
	align?: 'left' | 'right';
	/** Wider cells are cut with an ellipsis. */
	max?: number;
	/** The column that gives up width first when the terminal is narrow. */
	flexible?: boolean;
};

export function renderTable<T>(rows: readonly T[], columns: ReadonlyArray<Column<T>>, terminalWidth?: number): string[] {
	const cells = rows.map((row) => columns.map((column) => sanitizeLine(column.value(row))));
	const widths = columns.map((column, index) => {
		const widest = Math.max(cellWidth(column.header), ...cells.map((row) => cellWidth(row[index] ?? '')));
		return Math.min(widest, column.max ?? widest);
	});
	if (terminalWidth !== undefined) {
		const total = widths.reduce((sum, width) => sum + width, 0) + 2 * (columns.length - 1);
		const flex = columns.findIndex((column) => column.flexible);
		if (total > terminalWidth && flex !== -1) {
			widths[flex] = Math.max(cellWidth(columns[flex]!.header), (widths[flex] ?? 0) - (total - terminalWidth));
		}
	}
	const format = (row: readonly string[]) =>
		row
			.map((cell, index) => {
				const width = widths[index] ?? 0;
				const cut = truncateToWidth(cell, width);
				if (columns[index]?.align === 'right') return ' '.repeat(Math.max(0, width - cellWidth(cut))) + cut;
				// The last column is not padded: no trailing spaces in the output.
				return index === row.length - 1 ? cut : padToWidth(cut, width);
			})
			.join('  ');
	return [format(columns.map((column) => column.header)), ...cells.map(format)];
}
