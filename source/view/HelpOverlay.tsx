import {memo, useMemo, useState} from 'react';
import {Box, Text} from 'ink';
import {cellLeft, line} from './cells.js';
import {helpSections, keymap, type Binding} from './keymap.js';
import {useKeyHandlers} from './use-key-dispatch.js';

type Props = {width: number; height: number; onClose(): void; table?: readonly Binding[]};

type HelpLine = {text: string; title: boolean};

/** The help as lines: a title per context, then `keys  description` for each binding. */
export function helpLines(table: readonly Binding[] = keymap, keysWidth = 18): HelpLine[] {
	const lines: HelpLine[] = [];
	for (const section of helpSections(table)) {
		if (lines.length > 0) lines.push({text: '', title: false});
		lines.push({text: section.title, title: true});
		for (const row of section.rows) lines.push({text: `  ${cellLeft(row.keys, keysWidth)} ${row.description}`, title: false});
	}
	return lines;
}

/**
 * `?`: every binding of the keymap table, grouped by where it works. Generated from the same table
 * the dispatcher reads, so it cannot drift from what the keys do. Scrolls when it does not fit.
 */
function HelpOverlayImpl({width, height, onClose, table = keymap}: Props) {
	const lines = useMemo(() => helpLines(table), [table]);
	const bodyHeight = Math.max(1, height - 1);
	const maxOffset = Math.max(0, lines.length - bodyHeight);
	const [offset, setOffset] = useState(0);
	const scroll = (delta: number) => setOffset((value) => Math.max(0, Math.min(maxOffset, value + delta)));
	useKeyHandlers('help', {
		closeHelp: onClose,
		up: () => scroll(-1),
		down: () => scroll(1),
		pageUp: () => scroll(-bodyHeight),
		pageDown: () => scroll(bodyHeight),
		top: () => setOffset(0),
		bottom: () => setOffset(maxOffset),
	});
	const start = Math.min(offset, maxOffset);
	const more = lines.length > bodyHeight ? ` · ${start + 1}-${Math.min(lines.length, start + bodyHeight)} of ${lines.length}, j/k scroll` : '';
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold color="cyan" wrap="truncate">
				{line(`Keys (? or esc closes)${more}`, width)}
			</Text>
			{lines.slice(start, start + bodyHeight).map((entry, index) => (
				<Text key={index} bold={entry.title} wrap="truncate">
					{line(entry.text || ' ', width)}
				</Text>
			))}
		</Box>
	);
}

export const HelpOverlay = memo(HelpOverlayImpl);
