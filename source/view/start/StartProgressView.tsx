import {Box, Text} from 'ink';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import {wrapToWidth} from '../../format/wrap.js';
import type {StartProgress} from '../../state/dashboard-types.js';
import {phaseError, phaseLines} from './start-phases.js';

type Props = {
	progress: StartProgress;
	width: number;
	height: number;
};

const marks = {done: '✓', current: '…', failed: '✗'} as const;

/**
 * The start task streaming its phases (`[4/8] SETTING_UP_GIT_HOOKS`) until READY, or the error
 * in place with its text. Only the newest phases that fit are shown.
 */
export function StartProgressView({progress, width, height}: Props) {
	const lines = phaseLines(progress.phases);
	const error = progress.state === 'error' ? (progress.error ?? phaseError(progress.phases) ?? 'The start failed.') : null;
	// The server's reason can be long (a redacted trace); up to three rows of it, cut with `…`.
	const errorRows = error ? wrapToWidth(`Start failed: ${sanitizeLine(error)}`, width, 3, {words: true}) : [];
	const footerRows = error ? errorRows.length + 2 : 1;
	const visible = lines.slice(Math.max(0, lines.length - Math.max(1, height - footerRows)));
	const cut = (text: string) => truncateToWidth(text, width);
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{lines.length === 0 && progress.state === 'starting' ? <Text dimColor>{cut('Sending the request…')}</Text> : null}
			{visible.map((line, index) => (
				<Text key={index} color={line.state === 'failed' ? 'red' : line.state === 'current' ? 'cyan' : undefined} wrap="truncate">
					{cut(`${marks[line.state]} ${sanitizeLine(line.label)}`)}
				</Text>
			))}
			{progress.state === 'ready' ? <Text color="green">{cut('Ready: opening the conversation…')}</Text> : null}
			{error ? (
				<>
					{errorRows.map((row, index) => (
						<Text key={`error-${index}`} color="red" bold wrap="truncate">
							{row}
						</Text>
					))}
					<Text dimColor wrap="truncate">
						{cut('enter: back to the form (your input is kept) · esc: close')}
					</Text>
				</>
			) : null}
		</Box>
	);
}
