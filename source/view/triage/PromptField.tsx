import type {ReactNode} from 'react';
import {Box} from 'ink';
import {FieldRow, StatusRow, TitleRow} from './panel-parts.js';

/**
 * The one-line field of a prompt over the pane area (a message, a reason, a question, a search),
 * with its label, and under it the dim line that says what enter and esc do now.
 */
export function PromptField(props: {label: string; value: string; placeholder: string; onChange(text: string): void; hint: string; width: number}) {
	return (
		<>
			<FieldRow label={props.label} color="cyan" value={props.value} placeholder={props.placeholder} onChange={props.onChange} width={props.width} />
			<StatusRow text={props.hint} width={props.width} />
		</>
	);
}

/** A prompt over the pane area: its title, the field and its hint, then whatever the prompt shows below (an answer). */
export function PromptPanel(props: Parameters<typeof PromptField>[0] & {title: string; height: number; children?: ReactNode}) {
	const {width} = props;
	return (
		<Box flexDirection="column" width={width} height={props.height} overflow="hidden">
			<TitleRow text={props.title} width={width} />
			<PromptField label={props.label} value={props.value} placeholder={props.placeholder} onChange={props.onChange} hint={props.hint} width={width} />
			{props.children}
		</Box>
	);
}
