import type {StoredHistoryProgress} from '../state/stored-history.js';
import type {Io} from './io.js';

/**
 * Progress of a long stored-history read, for the person waiting: once more than three pages
 * were read, one stderr line rewritten in place (`pages, events`), and only when stderr is a
 * terminal, so scripts and logs see nothing of it. `done()` ends the line.
 */
export type HistoryProgress = {onPage(progress: StoredHistoryProgress): void; done(): void};

const quietPages = 3;

export function historyProgress(io: Io, what = 'reading stored history'): HistoryProgress {
	const terminal = (io.stderr as {isTTY?: boolean}).isTTY === true;
	let shown = false;
	return {
		onPage({pages, events}) {
			if (!terminal || pages <= quietPages) return;
			shown = true;
			io.stderr.write(`\r\x1b[Kagent-tui: ${what}: ${pages} pages, ${events} events`);
		},
		done() {
			if (shown) io.stderr.write('\n');
			shown = false;
		},
	};
}
