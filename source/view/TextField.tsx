import {useRef, useState} from 'react';
import {Text} from 'ink';
import TextInput from 'ink-text-input';
import {editLine, type LineEdit, type LineState} from './line-edit.js';
import {useTextSink} from './key-registry.js';

type Props = {
	value: string;
	onChange(value: string): void;
	placeholder?: string;
	/** Only a focused field takes keys (and shows its cursor). Defaults to true. */
	focus?: boolean;
	/**
	 * Open with the value it has selected, so typing replaces it (the `/` filter: the previous
	 * filter is shown, and what is typed starts a new one unless an arrow key keeps it).
	 */
	selectAll?: boolean;
};

/**
 * A one-line text field. It does not read the keyboard itself: the key dispatcher hands it every
 * editing key in order (several keys read at once over SSH, a bracketed paste as one piece of
 * text), and line-edit.ts decides what each does. The value belongs to the parent; the field
 * keeps only its cursor, and the value as it last made it (cleaned by line-edit.ts: callers take
 * it as it comes), so keys that arrive before the parent
 * has re-rendered build on each other instead of on a stale value.
 */
export function TextField({value, onChange, placeholder = '', focus = true, selectAll = false}: Props) {
	const [, setCursor] = useState(value.length);
	const [, setSelected] = useState(selectAll && value !== '');
	const latest = useRef<LineState>({value, cursor: value.length, selected: selectAll && value !== ''});
	const seenValue = useRef(value);
	if (value !== seenValue.current) {
		// The parent changed the value (cleared it, cleaned what was typed): the cursor follows.
		seenValue.current = value;
		if (value !== latest.current.value) latest.current = {value, cursor: value.length};
	}

	const onChangeRef = useRef(onChange);
	onChangeRef.current = onChange;
	useTextSink(focus, (edit: LineEdit) => {
		const before = latest.current;
		const next = editLine(before, edit);
		latest.current = next;
		setCursor(next.cursor);
		setSelected(next.selected === true);
		if (next.value !== before.value) onChangeRef.current(next.value);
	});

	const cursor = Math.min(latest.current.cursor, value.length);
	// An unfocused field is drawn by ink-text-input: with focus false its input hook is inactive,
	// so it never reads keys behind the dispatcher's back; it shows the value or a grey placeholder.
	if (!focus) return <TextInput value={value} placeholder={placeholder} focus={false} showCursor={false} onChange={ignoreChange} />;
	if (value.length === 0) {
		return (
			<Text>
				<Text inverse>{placeholder.slice(0, 1) || ' '}</Text>
				{placeholder.length > 1 ? <Text color="gray">{placeholder.slice(1)}</Text> : null}
			</Text>
		);
	}

	// Selected as a whole: shown inverted, the cursor at its end.
	if (latest.current.selected && latest.current.value === value) {
		return (
			<Text>
				<Text inverse>{value}</Text>
				<Text inverse> </Text>
			</Text>
		);
	}

	const after = value.slice(cursor);
	const at = after.length > 0 ? [...after][0] ?? ' ' : ' ';
	return (
		<Text>
			{value.slice(0, cursor)}
			<Text inverse>{at}</Text>
			{after.slice(at.length)}
		</Text>
	);
}

/** Unfocused fields take no keys, so nothing ever changes through ink-text-input itself. */
function ignoreChange(): void {}
