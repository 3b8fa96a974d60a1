import {useEffect, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import {PromptField} from './PromptField.js';
import {eventSummary} from '../../format/event-summary.js';
import {sanitizeLine} from '../../format/sanitize.js';
import type {SearchHit, SearchProgress} from '../../state/event-search.js';
import type {DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import {cellLeft, line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {shortTitle} from '../../state/triage-plan.js';

type Props = {
	/** The conversations to search: the ones the list shows (under its filter). */
	conversationKeys: readonly string[];
	snapshot: Pick<DashboardSnapshot, 'conversations'>;
	controller: Pick<DashboardController, 'searchAcross'>;
	width: number;
	height: number;
	onOpen(hit: SearchHit, query: string): void;
	onClose(): void;
	/** The zone of the hits' naive times (`UTC+1`), null while not known: said, as the timeline's header does. */
	eventZone?: string | null;
};

/** Hits kept on screen at most: a search that matches everything should not grow without end. */
const maxShown = 500;

/**
 * `S`: search the events of the conversations shown. Enter runs the query (text, `kind:`,
 * `source:`), hits are listed as they arrive, ↑/↓ pick one and enter opens its conversation with
 * the timeline filtered to the query.
 */
export function SearchOverlay(props: Props) {
	const {conversationKeys, snapshot, width, height} = props;
	const [query, setQuery] = useState('');
	const [ran, setRan] = useState<string | null>(null);
	const [hits, setHits] = useState<SearchHit[]>([]);
	const [progress, setProgress] = useState<SearchProgress | null>(null);
	const [index, setIndex] = useState(0);
	const cancel = useRef<(() => void) | null>(null);
	useEffect(() => () => cancel.current?.(), []);

	const run = () => {
		cancel.current?.();
		setHits([]);
		setIndex(0);
		setRan(query);
		setProgress({searched: 0, skipped: 0, failed: 0, total: conversationKeys.length, done: false, lastError: null});
		cancel.current =
			props.controller.searchAcross?.(conversationKeys, query, {
				onHit: (hit) => setHits((current) => (current.length >= maxShown ? current : [...current, hit])),
				onProgress: setProgress,
			}) ?? null;
	};
	const listHeight = Math.max(1, height - 3);
	useKeyHandlers('prompt', {
		send: () => {
			const hit = hits[index];
			if (query.trim() && query !== ran) run();
			else if (hit && ran !== null) props.onOpen(hit, ran);
		},
		cancel: props.onClose,
		up: () => setIndex((current) => Math.max(0, current - 1)),
		down: () => setIndex((current) => Math.min(Math.max(0, hits.length - 1), current + 1)),
		pageUp: () => setIndex((current) => Math.max(0, current - listHeight)),
		pageDown: () => setIndex((current) => Math.min(Math.max(0, hits.length - 1), current + listHeight)),
	});

	const supported = typeof props.controller.searchAcross === 'function';
	// The chosen hit stays on screen: the window follows it down.
	const offset = Math.max(0, index - listHeight + 1);
	const status = !supported
		? 'This server connection cannot search yet.'
		: progress === null
			? `Search the events of the ${conversationKeys.length} conversations shown: words, kind:ActionEvent, source:agent · enter runs`
			: `${hits.length} hit${hits.length === 1 ? '' : 's'} · ${progress.searched} of ${progress.total} searched${progress.stored ? ` (${progress.stored} from stored history)` : ''}${progress.skipped ? ` · ${progress.skipped} not running (skipped)` : ''}${progress.failed ? ` · ${progress.failed} failed: ${sanitizeLine(progress.lastError ?? '')}` : ''}${progress.done ? '' : ' · searching…'}`;
	const titleWidth = Math.min(24, Math.floor(width / 4));
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<PromptField label="search: " value={query} placeholder="text kind:ActionEvent source:agent" onChange={setQuery} hint={status} width={width} />
			<Box flexDirection="column" height={listHeight} overflow="hidden">
				{hits.slice(offset, offset + listHeight).map((hit, row) => {
					const summary = eventSummary(hit.event);
					const chosen = offset + row === index;
					const text = `${chosen ? '› ' : '  '}${cellLeft(shortTitle(snapshot, hit.conversationKey), titleWidth)} ${summary.time} ${cellLeft(summary.kind, 12)} ${summary.text}`;
					return (
						<Text key={`${hit.conversationKey}:${hit.event.id}`} inverse={chosen} wrap="truncate">
							{line(text, width)}
						</Text>
					);
				})}
			</Box>
			<Text dimColor wrap="truncate">
				{line(`times ${props.eventZone ?? 'server-local'} · enter runs, then opens the chosen hit · ↑/↓ choose · esc closes`, width)}
			</Text>
		</Box>
	);
}
