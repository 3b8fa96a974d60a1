import {FieldRow, StatusRow} from './panel-parts.js';

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
