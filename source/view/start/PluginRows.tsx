import {Box, Text} from 'ink';
import {truncateToWidth} from '../../format/width.js';
import {InlineInput} from './InlineInput.js';
import type {PluginDraft, PluginPart, Stop} from './start-form-state.js';

type Props = {
	plugins: readonly PluginDraft[];
	focus: Stop;
	width: number;
	/** Rows available; plugins beyond them are windowed around the focused one. */
	maxRows: number;
	onChange(index: number, part: PluginPart, value: string): void;
};

/** Window of `count` rows out of `total` that contains `focus`. */
export function pluginWindow(total: number, count: number, focus: number): {start: number; end: number} {
	if (total <= count) return {start: 0, end: total};
	const rows = Math.max(1, count);
	const start = Math.max(0, Math.min(total - rows, focus - Math.floor(rows / 2)));
	return {start, end: start + rows};
}

/** The plugin entries, one row each: source, ref, path, and a remove button. */
export function PluginRows({plugins, focus, width, maxRows, onChange}: Props) {
	const focusedIndex = focus.kind === 'plugin' || focus.kind === 'remove' ? focus.index : -1;
	// One row is kept for "… more" when the list does not fit.
	const fits = plugins.length <= maxRows;
	const window = pluginWindow(plugins.length, fits ? maxRows : Math.max(1, maxRows - 1), Math.max(0, focusedIndex));
	// Row: `NN.` (3), the three labels (19), ` [remove]` (9), then the inputs share the rest.
	const fieldsWidth = Math.max(12, width - 3 - 19 - 9);
	const sourceWidth = Math.floor(fieldsWidth * 0.5);
	const refWidth = Math.floor(fieldsWidth * 0.2);
	const pathWidth = fieldsWidth - sourceWidth - refWidth;
	// Each label starts with the focus marker, so the focused field shows without colour too.
	const input = (index: number, part: PluginPart, label: string, value: string, inputWidth: number, placeholder: string) => {
		const focused = focus.kind === 'plugin' && focus.index === index && focus.part === part;
		return (
			<>
				<Text dimColor={!focused} color={focused ? 'cyan' : undefined}>{`${focused ? '›' : ' '}${label} `}</Text>
				<InlineInput value={value} placeholder={placeholder} width={inputWidth} focused={focused} onChange={(next) => onChange(index, part, next)} />
			</>
		);
	};
	return (
		<Box flexDirection="column" width={width}>
			{plugins.slice(window.start, window.end).map((plugin, offset) => {
				const index = window.start + offset;
				const removing = focus.kind === 'remove' && focus.index === index;
				return (
					<Box key={index} width={width} height={1} overflow="hidden">
						<Text color={index === focusedIndex ? 'cyan' : undefined}>{`${String(index + 1).padStart(2)}.`}</Text>
						{input(index, 'source', 'source', plugin.source, sourceWidth, 'github:owner/repo')}
						{input(index, 'ref', 'ref', plugin.ref, refWidth, 'branch')}
						{input(index, 'repo_path', 'path', plugin.repo_path, pathWidth, 'dir')}
						<Text inverse={removing} color={removing ? 'red' : undefined}>
							{removing ? '›[remove]' : ' [remove]'}
						</Text>
					</Box>
				);
			})}
			{fits ? null : (
				<Text dimColor wrap="truncate">
					{truncateToWidth(`… ${plugins.length - (window.end - window.start)} more plugins (tab moves through them)`, width)}
				</Text>
			)}
		</Box>
	);
}
