/** One measured figure against its target. */
export type BenchRow = {
	area: string;
	name: string;
	figure: string;
	target: string;
	/** The figure against a limit measured in the same run, when there is one. */
	ratio?: string;
	met: boolean;
};

/** The table `npm run bench` prints: one row per figure, aligned, with a verdict column. */
export function renderTable(rows: readonly BenchRow[]): string {
	const header = ['area', 'measure', 'figure', 'target', 'ratio', 'met'];
	const body = rows.map((row) => [row.area, row.name, row.figure, row.target, row.ratio ?? '—', row.met ? 'yes' : 'NO']);
	const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
	const format = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
	return [format(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...body.map(format)].join('\n');
}

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const times = (value: number) => `${value.toFixed(2)}x`;
