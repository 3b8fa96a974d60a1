import {Box, Text} from 'ink';
import {TextField} from '../TextField.js';
import {compactJson} from '../../format/event-values.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import type {PluginSpec} from '../../wire/schemas/create-request.js';
import {trustWord} from './start-form-state.js';

type Props = {
	plugins: readonly PluginSpec[];
	origin: string | null;
	trustInput: string;
	width: number;
	/** Rows available; the plugin list is cut to fit, the warning and the input always show. */
	height: number;
	onTrustInput(value: string): void;
};

/** `github:o/r @ main : plugins/x  {"timeout":30}` */
export function pluginLine(plugin: PluginSpec): string {
	const ref = plugin.ref ? ` @ ${plugin.ref}` : '';
	const path = plugin.repo_path ? ` : ${plugin.repo_path}` : '';
	const parameters = plugin.parameters ? `  parameters ${compactJson(plugin.parameters, 80)}` : '';
	return sanitizeLine(`${plugin.source}${ref}${path}${parameters}`);
}

/**
 * The last step before starting with plugins from a launch link: what will be loaded, from
 * where, what that means, and a typed confirmation (a reflex key press is not consent).
 */
export function TrustReview({plugins, origin, trustInput, width, height, onTrustInput}: Props) {
	const fixedRows = 6;
	const listRows = Math.max(1, height - fixedRows);
	const shown = plugins.slice(0, plugins.length > listRows ? listRows - 1 : listRows);
	const cut = (text: string) => truncateToWidth(text, width);
	return (
		<Box flexDirection="column" width={width}>
			<Text color="yellow" bold wrap="truncate">
				{cut(`⚠ These ${plugins.length} plugin${plugins.length === 1 ? '' : 's'} came from a launch link${origin ? ` (${sanitizeLine(origin)})` : ''}:`)}
			</Text>
			{shown.map((plugin, index) => (
				<Text key={index} wrap="truncate">
					{cut(`  ${index + 1}. ${pluginLine(plugin)}`)}
				</Text>
			))}
			{shown.length < plugins.length ? <Text dimColor>{cut(`  … and ${plugins.length - shown.length} more`)}</Text> : null}
			<Text color="yellow" wrap="truncate">
				{cut('Plugins can run code in the sandbox and use this conversation\'s secrets.')}
			</Text>
			<Text color="yellow" wrap="truncate">
				{cut('Start only if you trust their source.')}
			</Text>
			<Box width={width} height={1} overflow="hidden">
				<Text bold>{`Type "${trustWord}" and press enter to start (esc goes back): `}</Text>
				<TextField value={trustInput} onChange={onTrustInput} />
			</Box>
		</Box>
	);
}
