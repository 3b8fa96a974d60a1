import {useEffect, useRef, useState} from 'react';
import {PromptPanel} from './PromptField.js';
import {useKeyHandlers} from '../use-key-dispatch.js';

type Props = {
	purpose: 'reject' | 'nudge';
	/** Sanitized title of the conversation it goes to. */
	title: string;
	width: number;
	height: number;
	/** Resolves true once sent; false when the server refused (the notice line says why). */
	onSend(text: string): Promise<boolean>;
	/** Sent: close the prompt. */
	onSent(): void;
	onCancel(): void;
};

const labels = {
	reject: {ask: 'Reject the pending actions of', field: 'reason (optional): ', placeholder: 'why, for the agent'},
	nudge: {ask: 'Send a message to', field: 'message: ', placeholder: 'what the agent should do next'},
};

/**
 * The one-line field behind `x` (a rejection reason, may stay empty) and `m` (a message, must not).
 * Enter sends, esc cancels; printable keys are text (the `prompt` context binds none). The
 * prompt stays open until the server has taken the message: one it refused stays in the field.
 */
export function TriagePrompt({purpose, title, width, height, onSend, onSent, onCancel}: Props) {
	const [text, setText] = useState('');
	const [state, setState] = useState<'typing' | 'sending' | 'failed'>('typing');
	const mounted = useRef(true);
	useEffect(
		() => () => {
			mounted.current = false;
		},
		[],
	);
	const label = labels[purpose];
	const empty = purpose === 'nudge' && text.trim().length === 0;
	useKeyHandlers('prompt', {
		send: () => {
			if (empty || state === 'sending') return;
			setState('sending');
			void onSend(text.trim()).then((sent) => {
				if (!mounted.current) return;
				if (sent) onSent();
				else setState('failed');
			});
		},
		cancel: onCancel,
	});
	const hint =
		state === 'sending'
			? 'Sending…'
			: state === 'failed'
				? 'Not sent (see below); the text is kept: enter tries again · esc cancels'
				: empty
					? 'Type a message, then enter sends it · esc cancels'
					: 'enter sends · esc cancels';
	return (
		<PromptPanel title={`${label.ask} ${title}`} label={label.field} value={text} placeholder={label.placeholder} onChange={setText} hint={hint} width={width} height={height} />
	);
}
