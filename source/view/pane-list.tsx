import type {ComponentType, ReactNode} from 'react';
import {Box, Text} from 'ink';
import {cellLeft, line} from './cells.js';

/**
 * What the conversations and sandboxes panes share: the dim column header with the position
 * (`3/40`) at its right end, and the visible slice of the list, one memoised row view per key.
 */

export function PaneHeader(props: {header: string; position: string; width: number}) {
	const {position, width} = props;
	return (
		<Text dimColor wrap="truncate">
			{line(`${cellLeft(props.header, width - position.length - 1)} ${position}`, width)}
		</Text>
	);
}

/** `visible`: the keys of the rows on screen (a row not in `rows` is skipped); `emptyText` when there are none. `children` go after the rows. */
export function PaneRows<Row, Cells>(props: {
	visible: readonly string[];
	rows: ReadonlyMap<string, Row>;
	cellsOf(row: Row, key: string): Cells;
	RowView: ComponentType<{cells: Cells; selected: boolean; focused: boolean}>;
	selectedKey: string | null;
	focused: boolean;
	emptyText: string;
	width: number;
	height: number;
	children?: ReactNode;
}) {
	const {RowView} = props;
	return (
		<Box flexDirection="column" height={props.height} overflow="hidden">
			{props.visible.length === 0 ? (
				<Text dimColor wrap="truncate">
					{line(props.emptyText, props.width)}
				</Text>
			) : (
				props.visible.map((key) => {
					const row = props.rows.get(key);
					return row ? <RowView key={key} cells={props.cellsOf(row, key)} selected={key === props.selectedKey} focused={props.focused} /> : null;
				})
			)}
			{props.children}
		</Box>
	);
}
