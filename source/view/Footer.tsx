import {memo} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {fitFooterHints} from './footer-hints.js';
import {type ActionName, footerHints, keymap, type KeyContext} from './keymap.js';
import {cellWidth} from '../format/width.js';
import {line} from './cells.js';
import {retryWait} from './health-text.js';
import {useNow} from './use-now.js';

/** `retryAt`: the connection's next retry; the line counts down to it as the header does. */
type Notice = {text: string; level: 'info' | 'warn' | 'error'; retryAt?: number | null};

type Props = {
	width: number;
	/** The active key contexts; the hints are generated from the keymap for them. */
	contexts: readonly KeyContext[];
	/** A pending y/n question replaces the hints, so it cannot be missed. */
	question: {question: string; detail: string} | null;
	notice: Notice | null;
	/** Actions whose hints go first (keep the array stable: the footer is memoised). */
	first?: readonly ActionName[];
};

const levelColor = {info: 'cyan', warn: 'yellow', error: 'red'} as const;

const noFirst: readonly ActionName[] = [];

/**
 * The hint line, kept per context stack, leading hints and width. The footer renders again when
 * the selected row's status changes its leading hints (every j/k over a mixed list), and building
 * the line walks the whole keymap: about a tenth of a key press's render at 10 conversations,
 * profiled. The stacks (keyContexts) and the leading-hint lists (Dashboard's) are the same arrays
 * each time, so they key the caches; past a few of each, the older are forgotten.
 */
const hintLines = new WeakMap<readonly KeyContext[], Map<readonly ActionName[], Map<number, string>>>();

function hintLine(contexts: readonly KeyContext[], first: readonly ActionName[], width: number): string {
	let byFirst = hintLines.get(contexts);
	if (!byFirst) hintLines.set(contexts, (byFirst = new Map()));
	let byWidth = byFirst.get(first);
	if (!byWidth) {
		// A caller passing a new array each render would otherwise grow this without end.
		if (byFirst.size >= 16) byFirst.clear();
		byFirst.set(first, (byWidth = new Map()));
	}
	let text = byWidth.get(width);
	if (text === undefined) {
		if (byWidth.size >= 8) byWidth.clear();
		text = line(fitFooterHints(footerHints(contexts, keymap, first), width), width);
		byWidth.set(width, text);
	}
	return text;
}

/** Key hints for what has the keyboard (or the y/n question), then the notice line. */
function FooterImpl({width, contexts, question, notice, first = noFirst}: Props) {
	// A question's detail (what else it stops, which sandbox the cap pauses) follows it on the same
	// line when it fits, else takes the notice line: what the question acts on is never cut off.
	const asked = question ? `${question.question} [y/n] ` : '';
	const detailBelow = question !== null && question.detail !== '' && cellWidth(asked) + cellWidth(question.detail) > width;
	// Ticks (each second, as the header's clock) only while a retry is counted down.
	const now = useNow(1000, notice?.retryAt != null);
	const wait = notice?.retryAt == null ? null : retryWait(notice.retryAt, now);
	const noticeText = notice ? `${notice.text}${wait ? `; retry in ${wait}` : ''}` : '';
	return (
		<Box flexDirection="column" height={2} width={width}>
			{question ? (
				<Text color="yellow" wrap="truncate">
					<Text bold>{line(asked, width)}</Text>
					{detailBelow ? '' : line(question.detail, Math.max(0, width - cellWidth(asked)))}
				</Text>
			) : (
				<Text dimColor wrap="truncate">
					{hintLine(contexts, first, width)}
				</Text>
			)}
			{detailBelow ? (
				<Text color="yellow" wrap="truncate">
					{line(question.detail, width)}
				</Text>
			) : (
				<Text color={notice ? levelColor[notice.level] : undefined} wrap="truncate">
					{notice ? line(sanitizeLine(noticeText), width) : ' '}
				</Text>
			)}
		</Box>
	);
}

export const Footer = memo(FooterImpl);
