import {useState} from 'react';
import {Box, Text} from 'ink';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {type BulkAction, confirmationMatches} from '../../state/bulk-plan.js';
import {bulkItemLine, interruptItemLine, type InterruptResult} from './bulk-lines.js';
import {FieldRow, ItemRows, StatusRow, TitleRow, useListScroll} from './panel-parts.js';

type Props = {
	action: BulkAction;
	/** Sandboxes for pause and resume, conversations for interrupt. */
	keys: readonly string[];
	skipped: number;
	/** The sandbox list has not arrived yet: nothing is planned, nothing can be confirmed. */
	loading?: boolean;
	/** The live snapshot: sandbox results are read from each sandbox's status and pending action. */
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>;
	width: number;
	height: number;
	/** Pause or resume: the store tracks each sandbox's request itself. */
	onRun?(keys: readonly string[]): void;
	/** Interrupt: one conversation's agent; the panel shows each answer as it comes. */
	interruptOne?(key: string): Promise<'interrupt' | 'pause'>;
	onClose(): void;
};

/**
 * `P` / `R` / `I` over the current filter: which sandboxes or conversations and how many, a typed
 * confirmation (the count or the word) so a stray enter never stops a fleet, then each result
 * as it comes.
 */
export function BulkPanel(props: Props) {
	const {action, keys, skipped, snapshot, width, height} = props;
	const [typed, setTyped] = useState('');
	const [asked, setAsked] = useState(false);
	const [results, setResults] = useState<ReadonlyMap<string, InterruptResult>>(new Map());
	const count = keys.length;
	const listHeight = Math.max(1, height - 3);
	const {offset, keys: scrollKeys} = useListScroll(count, listHeight);
	const matches = confirmationMatches(typed, action, count);
	const record = (key: string, result: InterruptResult) => setResults((current) => new Map(current).set(key, result));
	const interruptAll = async (interruptOne: (key: string) => Promise<'interrupt' | 'pause'>) => {
		// One at a time: each is a request to a different agent server, and the budget is shared.
		for (const key of keys) {
			record(key, {state: 'sending'});
			try {
				record(key, {state: 'done', how: await interruptOne(key)});
			} catch (error) {
				record(key, {state: 'failed', reason: error instanceof Error ? error.message : String(error)});
			}
		}
	};
	useKeyHandlers('prompt', {
		send: () => {
			if (asked || count === 0) props.onClose();
			else if (matches) {
				setAsked(true);
				if (action === 'interrupt') {
					if (props.interruptOne) void interruptAll(props.interruptOne);
				} else props.onRun?.(keys);
			}
		},
		cancel: props.onClose,
		...scrollKeys,
	});

	const items = keys.map((key) => (action === 'interrupt' ? interruptItemLine(snapshot, key, results.get(key)) : bulkItemLine(snapshot, action, key, asked)));
	const failed = items.filter((item) => item.color === 'red').length;
	const settled = items.filter((item) => item.settled).length;
	const title = props.loading ? `The sandbox list is still loading: the sandboxes to ${action} show here once it has arrived…` : bulkTitle(action, count, skipped);
	const range = count > listHeight ? ` · ${offset + 1}-${Math.min(count, offset + listHeight)} of ${count}` : '';
	const status = asked ? `${settled} of ${count} done · ${failed} failed · enter/esc closes` : count === 0 ? 'enter/esc closes' : `↑/↓ scroll${range} · enter confirms · esc cancels`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<TitleRow text={title} width={width} />
			<ItemRows rows={items} item={(item, index) => ({key: keys[index], ...item})} offset={offset} height={listHeight} width={width} />
			{asked || count === 0 ? (
				<Text wrap="truncate"> </Text>
			) : (
				<FieldRow label={line(`Type ${count} or ${action} to confirm: `, width)} color={matches ? 'green' : 'cyan'} value={typed} placeholder="" onChange={setTyped} width={width} />
			)}
			<StatusRow text={status} width={width} />
		</Box>
	);
}

function bulkTitle(action: BulkAction, count: number, skipped: number): string {
	if (action === 'interrupt') {
		const skippedText = skipped > 0 ? ` (${skipped} skipped: sandbox not running, or no agent at work)` : '';
		if (count === 0) return `No agent to stop among the conversations shown${skippedText}.`;
		return `Stop the agents of ${count} conversation${count === 1 ? '' : 's'} shown; their sandboxes keep running${skippedText}`;
	}
	const skippedText = skipped > 0 ? ` (${skipped} skipped: ${action === 'pause' ? 'not running' : 'not paused'} or busy)` : '';
	const verb = action === 'pause' ? 'Pause' : 'Resume';
	return count === 0 ? `Nothing to ${action} among the conversations shown${skippedText}.` : `${verb} ${count} sandbox${count === 1 ? '' : 'es'} of the conversations shown${skippedText}`;
}
