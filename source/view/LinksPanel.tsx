import {useState} from 'react';
import {Box, Text, useStdout} from 'ink';
import {linkHasSecret, linkName, maskedLink} from '../format/link-text.js';
import type {ExposedUrl} from '../wire/schemas/app.js';
import {line} from './cells.js';
import {osc52Copy} from './clipboard.js';
import {useKeyHandlers} from './use-key-dispatch.js';

type Props = {
	title: string;
	links: readonly ExposedUrl[];
	/** Why there are none (the sandbox is not running), when there are none. */
	emptyText: string;
	/** Exact values to hide wherever they appear (the session key). */
	secrets: readonly string[];
	width: number;
	height: number;
	onCopied(text: string): void;
	onClose(): void;
};

/**
 * `l`: the sandbox's links, tokens hidden. Enter copies the selected one, whole, to the clipboard
 * with OSC 52: the only way the full link leaves, and it is never drawn on the screen.
 */
export function LinksPanel(props: Props) {
	const {links, width, height} = props;
	const {stdout} = useStdout();
	const [index, setIndex] = useState(0);
	const move = (delta: number) => setIndex((current) => Math.min(Math.max(0, links.length - 1), Math.max(0, current + delta)));
	useKeyHandlers('prompt', {
		send: () => {
			const link = links[index];
			if (!link) return props.onClose();
			// Written past Ink: an OSC sequence draws nothing and moves no cursor.
			stdout.write(osc52Copy(link.url));
			props.onClose();
			props.onCopied(`Copied the ${linkName(String(link.name), link.port)} link to the clipboard${linkHasSecret(link.url) ? ' (with its token; keep it private)' : ''}.`);
		},
		cancel: props.onClose,
		up: () => move(-1),
		down: () => move(1),
		pageUp: () => move(-height),
		pageDown: () => move(height),
	});
	const listHeight = Math.max(1, height - 2);
	const offset = Math.max(0, Math.min(index - listHeight + 1, links.length - listHeight));
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(`Links of ${props.title}'s sandbox (tokens hidden)`, width)}
			</Text>
			<Box flexDirection="column" height={listHeight} overflow="hidden">
				{links.length === 0 ? (
					<Text dimColor wrap="truncate">
						{line(props.emptyText, width)}
					</Text>
				) : (
					links.slice(Math.max(0, offset), Math.max(0, offset) + listHeight).map((link, at) => {
						const selected = Math.max(0, offset) + at === index;
						return (
							<Text key={`${String(link.name)}:${link.port ?? at}`} inverse={selected} wrap="truncate">
								{line(`${selected ? '›' : ' '} ${linkName(String(link.name), link.port).padEnd(12)} ${maskedLink(link.url, props.secrets)}`, width)}
							</Text>
						);
					})
				)}
			</Box>
			<Text dimColor wrap="truncate">
				{line(links.length === 0 ? 'esc closes' : '↑/↓ choose · enter copies the full link (OSC 52) · esc closes', width)}
			</Text>
		</Box>
	);
}
