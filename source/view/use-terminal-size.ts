import {useEffect, useState} from 'react';
import {useStdout} from 'ink';

export type TerminalSize = {columns: number; rows: number};

/** Sizes used when stdout is not a terminal (piped, tests without a size). */
const fallback: TerminalSize = {columns: 80, rows: 24};

function read(stdout: NodeJS.WriteStream): TerminalSize {
	return {
		columns: stdout.columns > 0 ? stdout.columns : fallback.columns,
		rows: stdout.rows > 0 ? stdout.rows : fallback.rows,
	};
}

/**
 * Columns and rows of the terminal, following `resize`. Ink 6.8 re-lays out on a width change but
 * never tracks height, and the frame must stay shorter than the terminal (rows - 1), so the
 * dashboard needs both numbers itself.
 */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState(() => read(stdout));
	useEffect(() => {
		const update = () => {
			const next = read(stdout);
			setSize((previous) => (previous.columns === next.columns && previous.rows === next.rows ? previous : next));
		};
		update();
		stdout.on('resize', update);
		return () => {
			stdout.off('resize', update);
		};
	}, [stdout]);
	return size;
}
