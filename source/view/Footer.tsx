import {memo} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {fitFooterHints} from './footer-hints.js';
import {type ActionName, footerHints, keymap, type KeyContext} from './keymap.js';
import {cellWidth} from '../format/width.js';
import {line} from './cells.js';

type Notice = {text: string; level: 'info' | 'warn' | 'error'};

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

/** Key hints for what has the keyboard (or the y/n question), then the notice line. */
function FooterImpl({width, contexts, question, notice, first = []}: Props) {
	// A question's detail (what else it stops, which sandbox the cap pauses) follows it on the same
	// line when it fits, else takes the notice line: what the question acts on is never cut off.
	const asked = question ? `${question.question} [y/n] ` : '';
	const detailBelow = question !== null && question.detail !== '' && cellWidth(asked) + cellWidth(question.detail) > width;
	return (
		<Box flexDirection="column" height={2} width={width}>
			{question ? (
				<Text color="yellow" wrap="truncate">
					<Text bold>{line(asked, width)}</Text>
					{detailBelow ? '' : line(question.detail, Math.max(0, width - cellWidth(asked)))}
				</Text>
			) : (
				<Text dimColor wrap="truncate">
					{line(fitFooterHints(footerHints(contexts, keymap, first), width), width)}
				</Text>
			)}
			{detailBelow ? (
				<Text color="yellow" wrap="truncate">
					{line(question.detail, width)}
				</Text>
			) : (
				<Text color={notice ? levelColor[notice.level] : undefined} wrap="truncate">
					{notice ? line(sanitizeLine(notice.text), width) : ' '}
				</Text>
			)}
		</Box>
	);
}

export const Footer = memo(FooterImpl);
