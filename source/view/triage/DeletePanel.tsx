import {useState} from 'react';
import {Box, Text} from 'ink';
import type {ConversationRow, DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import type {DeleteProgress} from '../../state/delete-plan.js';
import {formatAgeAt, type AgeNow} from '../../format/time.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {FieldRow, ItemRows, type PanelItem, StatusRow, TitleRow, useListScroll} from './panel-parts.js';

type Props = {
	/** The dead group as it was when `D` was pressed: the preview is what is deleted, or less. */
	keys: readonly string[];
	snapshot: Pick<DashboardSnapshot, 'conversations'>;
	controller: Pick<DashboardController, 'deleteConversations'>;
	now: AgeNow;
	width: number;
	height: number;
	onClose(): void;
};

type ItemState = 'deleted' | 'changed' | 'gone' | 'failed';

/**
 * `D` in `!`: delete the dead group. The preview lists every conversation (title, server, sandbox
 * status, last change), a typed count (or the word `delete`) confirms, then the store deletes them
 * and their sandboxes one server at a time, re-reading them first (state/delete-plan.ts): each
 * line then says what became of it.
 */
export function DeletePanel(props: Props) {
	const {keys, snapshot, width, height} = props;
	const [frozen] = useState(() => keys.map((key) => ({key, row: snapshot.conversations.get(key)})));
	const [typed, setTyped] = useState('');
	const [phase, setPhase] = useState<'ask' | 'running' | 'done'>('ask');
	const [states, setStates] = useState<ReadonlyMap<string, ItemState>>(new Map());
	const [sandboxes, setSandboxes] = useState(0);
	const count = frozen.length;
	const listHeight = Math.max(1, height - 3);
	const {offset, keys: scrollKeys} = useListScroll(count, listHeight);
	const text = typed.trim().toLowerCase();
	const matches = count > 0 && (text === String(count) || text === 'delete');
	const onProgress = (progress: DeleteProgress) => {
		if (progress.kind === 'deleted' && progress.what === 'sandbox') {
			setSandboxes((current) => current + 1);
			return;
		}
		const key = progress.key;
		if (!key) return;
		const state: ItemState = progress.kind === 'deleted' ? 'deleted' : progress.kind === 'dropped' ? progress.reason : 'failed';
		setStates((current) => new Map(current).set(key, state));
	};
	const run = async () => {
		setPhase('running');
		try {
			await props.controller.deleteConversations?.(keys, onProgress);
		} finally {
			setPhase('done');
		}
	};
	useKeyHandlers('prompt', {
		send: () => {
			if (phase !== 'ask' || count === 0 || !props.controller.deleteConversations) {
				if (phase !== 'running') props.onClose();
			} else if (matches) void run();
		},
		cancel: () => phase !== 'running' && props.onClose(),
		...scrollKeys,
	});
	const tally = (state: ItemState) => [...states.values()].filter((value) => value === state).length;
	const title =
		count === 0
			? 'Nothing dead to delete.'
			: !props.controller.deleteConversations
				? 'Deleting is not available here.'
				: `Delete ${count} dead conversation${count === 1 ? '' : 's'} and the sandboxes only they use (each is read again first; one that changed is left out)`;
	const status =
		phase === 'ask'
			? count === 0
				? 'enter/esc closes'
				: `↑/↓ scroll · enter confirms · esc cancels`
			: `${phase === 'running' ? 'deleting… ' : ''}${tally('deleted')} deleted (${sandboxes} sandbox${sandboxes === 1 ? '' : 'es'}) · ${tally('changed') + tally('gone')} left out · ${tally('failed')} failed${phase === 'done' ? ' · enter/esc closes' : ''}`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<TitleRow text={title} width={width} />
			<ItemRows rows={frozen} item={({key, row}) => itemOf(key, row, states.get(key), props.now)} offset={offset} height={listHeight} width={width} />
			{phase === 'ask' && count > 0 && props.controller.deleteConversations ? (
				<FieldRow label={line(`Type ${count} or delete to confirm: `, width)} color={matches ? 'green' : 'cyan'} value={typed} placeholder="" onChange={setTyped} width={width} />
			) : (
				<Text wrap="truncate"> </Text>
			)}
			<StatusRow text={status} width={width} />
		</Box>
	);
}

/** One conversation of the group, and what became of it once the deleting has begun. */
function itemOf(key: string, row: ConversationRow | undefined, state: ItemState | undefined, now: AgeNow): PanelItem {
	const mark = state === 'deleted' ? '✓ deleted' : state === 'changed' ? '– changed, kept' : state === 'gone' ? '– gone already' : state === 'failed' ? '✗ failed' : '';
	const server = row?.server ? `${row.server.name} · ` : '';
	const age = formatAgeAt(now, row?.lastActivityAt ?? null);
	const text = `${server}${String(row?.conversation.sandbox_status ?? '?')} · ${age} · ${sanitizeLine(row?.conversation.title ?? '(untitled)')} (${key.slice(0, 8)})${mark ? `  ${mark}` : ''}`;
	return {key, text, color: state === 'failed' ? 'red' : state === 'deleted' ? 'green' : undefined};
}
