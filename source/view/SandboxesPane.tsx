import {useMemo} from 'react';
import {Box} from 'ink';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {AgeNow} from '../format/time.js';
import {cellWidth} from '../format/width.js';
import {PaneHeader, PaneRows} from './pane-list.js';
import type {ListWindow} from './list-window.js';
import {cachedSandboxCells, sandboxColumns, sandboxHeader} from './sandbox-cells.js';
import {SandboxRowView} from './SandboxRowView.js';
import {SpecsList, specsRows} from './SpecsList.js';

export type SandboxesPaneProps = {
	sandboxes: DashboardSnapshot['sandboxes'];
	conversations: DashboardSnapshot['conversations'];
	specs: DashboardSnapshot['specs'];
	keys: readonly string[];
	window: ListWindow;
	width: number;
	height: number;
	focused: boolean;
	loading: boolean;
	/** Now on the data's clock; `unknown` while it is not known (ages read `?`). */
	now: AgeNow;
	/** The all-servers view: the servers' names, for the SERVER column (absent: one server). */
	serverNames?: readonly string[] | undefined;
};

/** List rows of the sandboxes pane for a pane height (header and specs take the rest). */
export function sandboxListHeight(height: number, specCount: number): number {
	return Math.max(1, height - 1 - specsRows(specCount, height));
}

/** Sandboxes with their status (and pending pause/resume), spec, age and users; then the specs. */
export function SandboxesPane(props: SandboxesPaneProps) {
	const {sandboxes, conversations, specs, keys, window, width, height, focused, now} = props;
	const serverWidth = props.serverNames ? Math.max(0, ...props.serverNames.map((name) => cellWidth(sanitizeLine(name)))) : 0;
	const columns = useMemo(() => sandboxColumns(width, serverWidth), [width, serverWidth]);
	const listHeight = sandboxListHeight(height, specs.length);
	const visible = keys.slice(window.offset, window.offset + listHeight);
	const position = keys.length > 0 ? `${window.index + 1}/${keys.length}` : '0';
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<PaneHeader header={sandboxHeader(columns)} position={position} width={width} />
			<PaneRows
				visible={visible}
				rows={sandboxes}
				cellsOf={(row) => cachedSandboxCells(row, columns, conversations, now)}
				RowView={SandboxRowView}
				selectedKey={window.selectedKey}
				focused={focused}
				emptyText={props.loading ? 'Loading sandboxes…' : 'No sandboxes.'}
				width={width}
				height={listHeight}
			/>
			<SpecsList specs={specs} width={width} height={specsRows(specs.length, height)} />
		</Box>
	);
}
