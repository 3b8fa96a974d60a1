import {useEffect, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import {sanitizeText} from '../../format/sanitize.js';
import {wrapToWidth} from '../../format/wrap.js';
import {PromptPanel} from './PromptField.js';
import {askEffect} from '../../format/ask-effect.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {useNow} from '../use-now.js';

type Props = {
	/** Sanitized title of the conversation asked (with its server in the all-servers view). */
	title: string;
	/** The conversation's execution status as the server last said it (what asking leaves alone). */
	executionStatus: string | null | undefined;
	width: number;
	height: number;
	/** Sends the question (`ask_agent`); resolves with the agent's answer, unsanitized. */
	ask(question: string, signal: AbortSignal): Promise<string>;
	onClose(): void;
};

type State =
	| {kind: 'typing'}
	| {kind: 'asking'; question: string; since: number}
	| {kind: 'answered'; question: string; answer: string}
	| {kind: 'failed'; question: string; reason: string};

/**
 * `A`: a side question to the selected conversation's agent (`ask_agent`), answered in this
 * panel. The agent is not disturbed: the server records nothing and its status stays as it is, so
 * the list and timeline behind do not move. Enter asks (again, with a new question, once
 * answered); arrows and page keys scroll a long answer; esc closes and stops waiting. The answer
 * is the agent's own text: escape sequences in it are shown as visible marks, never run.
 */
export function AskPanel({title, executionStatus, width, height, ask, onClose}: Props) {
	const [text, setText] = useState('');
	const [state, setState] = useState<State>({kind: 'typing'});
	const [scroll, setScroll] = useState(0);
	// Enter with nothing typed: said on screen (the example question looks typed without colour).
	const [emptyEnter, setEmptyEnter] = useState(false);
	const abort = useRef<AbortController | null>(null);
	useEffect(
		() => () => {
			abort.current?.abort();
		},
		[],
	);
	const now = useNow(1000, state.kind === 'asking');

	const answerWidth = Math.max(10, width - 2);
	const answerRows = Math.max(1, height - 5);
	const lines =
		state.kind === 'answered'
			? wrapToWidth(sanitizeText(state.answer.trim() || '(an empty answer)'), answerWidth, Number.POSITIVE_INFINITY, {words: true})
			: state.kind === 'failed'
				? wrapToWidth(`Not answered: ${sanitizeText(state.reason)}`, answerWidth, Number.POSITIVE_INFINITY, {words: true})
				: [];
	const maxScroll = Math.max(0, lines.length - answerRows);
	const move = (delta: number) => setScroll((current) => Math.min(maxScroll, Math.max(0, current + delta)));

	useKeyHandlers('prompt', {
		send: () => {
			const question = text.trim();
			if (!question) {
				setEmptyEnter(true);
				return;
			}

			if (state.kind === 'asking') return;
			setEmptyEnter(false);
			const controller = new AbortController();
			abort.current = controller;
			setState({kind: 'asking', question, since: Date.now()});
			setScroll(0);
			ask(question, controller.signal).then(
				(answer) => {
					if (!controller.signal.aborted) setState({kind: 'answered', question, answer});
				},
				(error: unknown) => {
					if (!controller.signal.aborted) setState({kind: 'failed', question, reason: error instanceof Error ? error.message : String(error)});
				},
			);
		},
		up: () => move(-1),
		down: () => move(1),
		pageUp: () => move(-answerRows),
		pageDown: () => move(answerRows),
		cancel: () => {
			abort.current?.abort();
			onClose();
		},
	});

	const status =
		state.kind === 'asking'
			? `Asking… ${Math.max(0, Math.round((now - state.since) / 1000))}s (a model call; esc stops waiting)`
			: state.kind === 'answered'
				? `Answered. Its status and history are unchanged. ${lines.length > answerRows ? `${scroll + 1}-${Math.min(lines.length, scroll + answerRows)}/${lines.length} ↑↓ scroll · ` : ''}enter asks again · esc closes`
				: state.kind === 'failed'
					? 'enter tries again · esc closes'
					: text.trim()
						? 'enter asks · esc closes'
						: emptyEnter
							? 'Nothing typed yet: the example is not sent. Type a question, then enter asks it · esc closes'
							: 'Type a question, then enter asks it · esc closes';
	return (
		<PromptPanel title={`Ask ${title} (${askEffect(executionStatus)})`} label="question: " value={text} placeholder="e.g. what are you blocked on?" onChange={setText} hint={status} width={width} height={height}>
			<Text dimColor wrap="truncate">
				{line('─'.repeat(width), width)}
			</Text>
			<Box flexDirection="column" height={answerRows} overflow="hidden">
				{lines.slice(scroll, scroll + answerRows).map((row, index) => (
					<Text key={index} wrap="truncate" color={state.kind === 'failed' ? 'red' : undefined}>
						{` ${row}`}
					</Text>
				))}
			</Box>
		</PromptPanel>
	);
}
