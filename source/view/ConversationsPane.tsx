import {useMemo} from 'react';
import {Box, Text} from 'ink';
import type {AgeNow} from '../format/time.js';
import {parseConversationFilter, unknownFilterStatuses} from '../state/conversation-query.js';
import type {TreeNode} from '../state/conversation-tree.js';
import type {ConversationRow, ConversationSortKey} from '../state/dashboard-types.js';
import type {ExposedUrl} from '../wire/schemas/app.js';
import {sanitizeLine} from '../format/sanitize.js';
import {cellWidth} from '../format/width.js';
import {line} from './cells.js';
import {PaneHeader, PaneRows} from './pane-list.js';
import {keyOf} from './keymap.js';
import {cachedConversationCells, columnHeader, conversationColumns} from './conversation-cells.js';
import {ConversationPreview, previewRows} from './ConversationPreview.js';
import {ConversationRowView} from './ConversationRowView.js';
import {parentKeyOf} from '../state/conversation-rows.js';
import {FilterLine} from './FilterLine.js';
import type {UnreadableRow} from '../state/unreadable-rows.js';
import {notApiWords} from '../wire/errors.js';
import type {ListWindow} from './list-window.js';

export type ConversationsPaneProps = {
	rows: ReadonlyMap<string, ConversationRow>;
	/** Filtered and sorted keys in tree order (selectConversationTree). */
	keys: readonly string[];
	/** Where each listed row sits among sub-agents (absent: a plain top-level row). */
	nodes?: ReadonlyMap<string, TreeNode>;
	/** Every conversation known, to show `3 of 42` under a filter. */
	total: number;
	window: ListWindow;
	width: number;
	height: number;
	focused: boolean;
	filter: string;
	editingFilter: boolean;
	sort: ConversationSortKey;
	/** Frozen (`F`): how many changes wait to be applied; null while the list is live. */
	frozenChanges?: number | null;
	/** Still loading the first page (no success yet): say so instead of "no conversations". */
	loading: boolean;
	/** Now on the data's clock; `unknown` while it is not known (ages read `?`). */
	now: AgeNow;
	/** The selected conversation's sandbox links (links.ts). */
	links?: readonly ExposedUrl[];
	/** The all-servers view: the servers' names, for the SERVER column (absent: one server, no column). */
	serverNames?: readonly string[];
	/** Why the list cannot be loaded (the last failure), said instead of "Loading…" while nothing loaded. */
	loadError?: string | null;
	/** Rows the server sent that could not be read (how many, and the first of them): listed at the end, never "none". */
	unreadableCount?: number;
	unreadable?: readonly UnreadableRow[] | undefined;
	/** The agents' last answers by key (`agent_final_response`); the selected one's is in the preview. */
	answers?: ReadonlyMap<string, string> | undefined;
	onFilterChange(text: string): void;
	onFilterDone(): void;
	onFilterCancel(): void;
	onMove(delta: number): void;
};

/** Rows the pane spends on other things than list rows, given its filter state. */
export function conversationListHeight(height: number, filterShown: boolean): number {
	return Math.max(1, height - 1 - previewRows - (filterShown ? 1 : 0));
}

/**
 * The conversations list: a column header, the visible slice of rows (never more: a 2,000-row
 * tree costs ~240 ms a frame), and a preview of the selected conversation.
 */
export function ConversationsPane(props: ConversationsPaneProps) {
	const {rows, keys, window, width, height, focused, now} = props;
	const filterShown = props.editingFilter || props.filter.trim().length > 0;
	const listHeight = conversationListHeight(height, filterShown);
	const serverWidth = props.serverNames ? Math.max(0, ...props.serverNames.map((name) => cellWidth(sanitizeLine(name)))) : 0;
	const columns = useMemo(() => conversationColumns(width, serverWidth), [width, serverWidth]);
	const visible = keys.slice(window.offset, window.offset + listHeight);
	const selectedRow = window.selectedKey ? rows.get(window.selectedKey) : undefined;
	const frozen = props.frozenChanges == null ? '' : `frozen·${props.frozenChanges} new `;
	const position = frozen + (keys.length > 0 ? `${window.index + 1}/${keys.length}` : '0');
	const header = columnHeader(columns);
	// Unreadable rows go after the last row, in the room the list leaves (they cannot be selected).
	const atEnd = window.offset + visible.length >= keys.length;
	const room = Math.max(0, listHeight - Math.max(1, visible.length));
	const unreadable = atEnd && !props.loading ? (props.unreadable ?? []).slice(0, room) : [];
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{filterShown ? (
				<FilterLine
					value={props.filter}
					editing={props.editingFilter}
					width={width}
					placeholder="status:error sandbox:paused repo:owner/name words"
					counter={`${keys.length} of ${props.total}${unknownNotice(props.filter)}`}
					onChange={props.onFilterChange}
					onDone={props.onFilterDone}
					onCancel={props.onFilterCancel}
					onMove={props.onMove}
				/>
			) : null}
			<PaneHeader header={header} position={position} width={width} />
			<PaneRows
				visible={visible}
				rows={rows}
				cellsOf={(row, key) => cachedConversationCells(row, columns, now, props.nodes?.get(key))}
				RowView={ConversationRowView}
				selectedKey={window.selectedKey}
				focused={focused}
				emptyText={emptyText(props)}
				width={width}
				height={listHeight}
			>
				{unreadable.map((row, index) => (
					<Text key={`unreadable-${index}`} color="yellow" wrap="truncate">
						{line(`⚠ unreadable  ${row.id === null ? '(no id)' : sanitizeLine(row.id)}  ${sanitizeLine(row.why)}`, width)}
					</Text>
				))}
			</PaneRows>
			<ConversationPreview row={selectedRow} width={width} now={now} links={props.links} node={window.selectedKey ? props.nodes?.get(window.selectedKey) : undefined} parent={parentOf(rows, selectedRow)}
				answer={window.selectedKey ? props.answers?.get(window.selectedKey) : undefined}
			/>
		</Box>
	);
}

/** The listed parent of a sub-conversation, for the preview to name. */
function parentOf(rows: ReadonlyMap<string, ConversationRow>, row: ConversationRow | undefined): ConversationRow | undefined {
	const parent = row ? parentKeyOf(row.conversation) : null;
	return parent ? rows.get(parent) : undefined;
}

/** Status words no known status starts with still filter (servers add statuses): said, not refused. */
function unknownNotice(filter: string): string {
	const unknown = unknownFilterStatuses(parseConversationFilter(filter));
	return unknown.length === 0 ? '' : ` · ${unknown.map((word) => `"${word}"`).join(', ')} not a known status`;
}

function emptyText(props: ConversationsPaneProps): string {
	// A server that fails (a web page, not the API) says why, not "Loading…" forever.
	if (props.loading) {
		if (props.loadError?.includes(notApiWords)) return 'Cannot list conversations: this URL is not the API (it answered with a web page); check the base URL.';
		return props.loadError ? `Cannot list conversations: ${sanitizeLine(props.loadError)}` : 'Loading conversations…';
	}
	const unreadable = props.unreadableCount ?? 0;
	if (props.total === 0 && unreadable > 0) return `Could not read any of the ${unreadable} row${unreadable === 1 ? '' : 's'} the server sent (below).`;
	if (props.total === 0) return `No conversations yet. Press ${keyOf('start')} to start one.`;
	return `Nothing matches "${sanitizeLine(props.filter.trim())}". Press esc to clear the filter.`;
}
