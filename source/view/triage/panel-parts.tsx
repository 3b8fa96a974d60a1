import {useState} from 'react';
import {Box, Text} from 'ink';
import {line} from '../cells.js';
import {TextField} from '../TextField.js';

/**
 * The rows the triage panels are built of (bulk, delete, remedy, the prompts): a bold title, a
 * list of item rows that scrolls, a one-line text field, a dim status row.
 */

/** One item row of a panel's list: its words and colour, keyed by the conversation or sandbox. */
export type PanelItem = {key: string | undefined; text: string; color?: string | undefined};

export function TitleRow(props: {text: string; width: number}) {
	return (
		<Text bold wrap="truncate">
			{line(props.text, props.width)}
		</Text>
	);
}

/** The dim row that says what the keys do now, or how far the work is. */
export function StatusRow(props: {text: string; width: number}) {
	return (
		<Text dimColor wrap="truncate">
			{line(props.text, props.width)}
		</Text>
	);
}

/** The `height` rows of `rows` from `offset` on, each indented and cut to the width. */
export function ItemRows<Row>(props: {rows: readonly Row[]; item(row: Row, index: number): PanelItem; offset: number; height: number; width: number}) {
	const {offset, width} = props;
	return (
		<Box flexDirection="column" height={props.height} overflow="hidden">
			{props.rows.slice(offset, offset + props.height).map((row, index) => {
				const item = props.item(row, offset + index);
				return (
					<Text key={item.key ?? offset + index} color={item.color} wrap="truncate">
						{line(`  ${item.text}`, width)}
					</Text>
				);
			})}
		</Box>
	);
}

/** A label and a one-line text field after it, on one row. */
export function FieldRow(props: {label: string; color: string; value: string; placeholder: string; onChange(text: string): void; width: number}) {
	return (
		<Box height={1} width={props.width} overflow="hidden">
			<Text color={props.color}>{props.label}</Text>
			<Box flexGrow={1} height={1} overflow="hidden">
				<TextField value={props.value} placeholder={props.placeholder} onChange={props.onChange} />
			</Box>
		</Box>
	);
}

/** A list of `count` rows shown `listHeight` at a time: the first row shown and the keys that move it. */
export function useListScroll(count: number, listHeight: number) {
	const [offset, setOffset] = useState(0);
	const scroll = (delta: number) => setOffset((current) => Math.min(Math.max(0, count - listHeight), Math.max(0, current + delta)));
	return {
		offset,
		keys: {
			up: () => scroll(-1),
			down: () => scroll(1),
			pageUp: () => scroll(-listHeight),
			pageDown: () => scroll(listHeight),
		},
	};
}
