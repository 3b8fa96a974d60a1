import {useState} from 'react';
import {Box, Text} from 'ink';
import {formatAgeAt, type AgeNow} from '../../format/time.js';
import {type CauseGroup, causeGroups, groupServers} from '../../state/causes.js';
import {sanitizeLine} from '../../format/sanitize.js';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';
import {cellLeft, cellRight, line} from '../cells.js';
import {wrapToWidth} from '../../format/wrap.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {cursorKeys} from '../cursor-keys.js';
import {causeAdvice, causeLabel} from './cause-words.js';
import {deadGroup, deadGroupLine} from '../../state/dead-group.js';
import {keyOf} from '../keymap.js';

type Props = {
	snapshot: Pick<DashboardSnapshot, 'conversations'> & {connection?: Pick<DashboardSnapshot['connection'], 'agesUnverified' | 'agesAssumed'>};
	/** The servers' clock (ages are measured on it); `unknown` while it is not known (ages read `?`). */
	now: AgeNow;
	width: number;
	height: number;
	/** Enter: the group's conversations in the list. */
	onShow(group: CauseGroup): void;
	/** The group's remedy: its panel lists what it acts on and asks y/n. */
	onRemedy(group: CauseGroup): void;
	/** `s`: snooze the whole group (the chooser asks how long). */
	onSnooze?(group: CauseGroup): void;
	/** A key for a remedy the group does not have: what to say instead. */
	onRefused(text: string): void;
	/** `D`: delete the dead group (these conversations). */
	onClearDead?(keys: readonly string[]): void;
	onClose(): void;
};

const colors: Record<CauseGroup['kind'], string> = {
	approval: 'yellow',
	error: 'red',
	stuck: 'red',
	spending: 'red',
	sandbox_down: 'red',
	quiet: 'yellow',
	repeating: 'magenta',
	paused: 'yellow',
};

/**
 * `!`: what needs you, one line per cause: how many conversations, how long the oldest has waited,
 * and what to do: the key of a remedy the whole group can take (run the retryable errors again,
 * resume what was paused mid-run), or what has to change where none is safe, cut to its column and
 * said whole for the selected group under the list. Live: counts move as the fleet does; the
 * selection stays on its cause.
 */
export function CauseQueue(props: Props) {
	const {snapshot, now, width, height} = props;
	const groups = causeGroups(snapshot);
	const [selectedKey, setSelectedKey] = useState<string | null>(null);
	const found = groups.findIndex((group) => group.key === selectedKey);
	const index = found === -1 ? 0 : found;
	const selected = groups[index];
	const move = (delta: number) => {
		const next = groups[Math.min(groups.length - 1, Math.max(0, index + delta))];
		if (next) setSelectedKey(next.key);
	};
	const remedy = (wanted: 'run' | 'resume') => {
		if (!selected) return;
		if (selected.remedy === wanted) props.onRemedy(selected);
		else props.onRefused(`${causeLabel(selected.cause)}: ${wanted === 'run' ? 'not retryable, nothing is run' : 'nothing to resume'}; ${causeAdvice(selected)}.`);
	};
	// The selected group's advice, whole, under the list: its column is cut on a narrow terminal,
	// and what to do about a cause is the point of the queue. (The keys are on the footer.)
	const advice = selected ? wrapToWidth(`${causeLabel(selected.cause)}: ${causeAdvice(selected)}`, width, 2, {words: true}) : [];
	// The dead are not in `!`: one line under it says how many and how to clear them (state/dead-group.ts).
	const dead = deadGroup(snapshot);
	const unconfirmed = snapshot.connection?.agesUnverified === true || snapshot.connection?.agesAssumed === true;
	const deadLine = deadGroupLine(dead, keyOf('clearDead')) ?? (unconfirmed ? '☠ dead (ERROR/MISSING, unchanged for days): not told until the data confirms its clock; an assumed age never decides' : null);
	const listHeight = Math.max(1, height - 2 - advice.length - (deadLine ? 1 : 0));
	useKeyHandlers('queue', {
		...cursorKeys(move, groups.length, listHeight),
		open: () => selected && props.onShow(selected),
		runAll: () => remedy('run'),
		resumeAll: () => remedy('resume'),
		snooze: () => selected && props.onSnooze?.(selected),
		clearDead: () => (dead.keys.length > 0 ? props.onClearDead?.(dead.keys) : props.onRefused('Nothing is dead: no ERROR or MISSING conversation is old enough (or ages are not confirmed by the data yet).')),
		back: props.onClose,
	});

	// The header's `! N need you` counts what needs a person; a conversation paused mid-run is a
	// group here (resume is its remedy) but not in that count: said apart, so the two agree.
	const needing = groups.filter((group) => group.kind !== 'paused');
	const total = needing.reduce((sum, group) => sum + group.keys.length, 0);
	const paused = groups.reduce((sum, group) => sum + (group.kind === 'paused' ? group.keys.length : 0), 0);
	// The all-servers view: rows name their server.
	const servers = snapshot.conversations.values().next().value?.server !== undefined;
	const labelWidth = Math.min(40, Math.max(20, Math.floor(width * 0.38)));
	const header = `  ${cellLeft('CAUSE', labelWidth)} ${cellRight('N', 4)} ${cellRight('OLDEST', 6)}  WHAT TO DO`;
	const offset = Math.max(0, Math.min(index - listHeight + 1, groups.length - listHeight));
	const pausedText = paused === 0 ? '' : `${paused} ${total === 0 ? '' : 'more '}paused mid-run`;
	const title =
		total === 0
			? paused === 0
				? 'Nothing needs you.'
				: `Nothing needs you · ${pausedText}`
			: `What needs you, by cause: ${plural(total, 'conversation')} in ${plural(needing.length, 'group')}${paused === 0 ? '' : ` · ${pausedText}`}`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(title, width)}
			</Text>
			<Text dimColor wrap="truncate">
				{line(header, width)}
			</Text>
			<Box flexDirection="column" height={listHeight} overflow="hidden">
				{groups.slice(offset, offset + listHeight).map((group, position) => {
					const chosen = offset + position === index;
					const age = formatAgeAt(group.agesUnverified ? 'unknown' : now, group.oldestSince);
					// Several servers in the list: each group says how many are on each (`work 3 · lab 1`).
					const perServer = servers ? groupServers(group, snapshot.conversations).map((entry) => `${sanitizeLine(entry.name)} ${entry.count}`).join(' · ') : '';
					const text = `${chosen ? '› ' : '  '}${cellLeft(causeLabel(group.cause), labelWidth)} ${cellRight(String(group.keys.length), 4)} ${cellRight(age, 6)}  ${perServer ? `[${perServer}] ` : ''}${causeAdvice(group)}`;
					return (
						<Text key={group.key} color={colors[group.kind]} bold={chosen} inverse={chosen} wrap="truncate">
							{line(text, width)}
						</Text>
					);
				})}
			</Box>
			{advice.map((row, index) => (
				<Text key={index} color={selected ? colors[selected.kind] : undefined} wrap="truncate">
					{line(row, width)}
				</Text>
			))}
			{deadLine ? (
				<Text dimColor wrap="truncate">
					{line(deadLine, width)}
				</Text>
			) : null}
		</Box>
	);
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
