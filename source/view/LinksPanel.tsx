import {useState} from 'react';
import {Box, Text, useStdout} from 'ink';
import {linkHasSecret, linkName, maskedLink} from '../format/link-text.js';
import type {ExposedUrl} from '../wire/schemas/app.js';
import {line} from './cells.js';
import {osc52Copy, osc8Link} from './clipboard.js';
import {useKeyHandlers} from './use-key-dispatch.js';
import {cursorKeys} from './cursor-keys.js';

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
 * with OSC 52; `o` makes its row a terminal link (OSC 8) to the whole URL. Those are the only
 * ways the full link leaves, only when asked, and it is never drawn on the screen.
 */
export function LinksPanel(props: Props) {
	const {links, width, height} = props;
	const {stdout} = useStdout();
	const [index, setIndex] = useState(0);
	/** The row made clickable with `o` (OSC 8), until the selection moves. */
	const [clickable, setClickable] = useState<number | null>(null);
	const move = (delta: number) => {
		setClickable(null);
		setIndex((current) => Math.min(Math.max(0, links.length - 1), Math.max(0, current + delta)));
	};
	useKeyHandlers('links', {
		copyLink: () => {
			const link = links[index];
			if (!link) return props.onClose();
			// Written past Ink: an OSC sequence draws nothing and moves no cursor.
			stdout.write(osc52Copy(link.url.reveal()));
			props.onClose();
			props.onCopied(`Copied the ${linkName(String(link.name), link.port)} link to the clipboard${linkHasSecret(link.url.reveal()) ? ' (with its token; keep it private)' : ''}.`);
		},
		openLink: () => {
			if (links[index]) setClickable(index);
		},
		back: props.onClose,
		...cursorKeys(move, links.length, height),
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
						const row = Math.max(0, offset) + at;
						const selected = row === index;
						const text = line(`${selected ? '›' : ' '} ${linkName(String(link.name), link.port).padEnd(12)} ${maskedLink(link.url.reveal(), props.secrets)}`, width);
						// Asked for with `o`: the row's masked text links to the whole URL (never drawn).
						const linked = row === clickable ? osc8Link(link.url.reveal(), text) : null;
						return (
							<Text key={`${String(link.name)}:${link.port ?? at}`} inverse={selected} wrap="truncate">
								{linked ?? text}
							</Text>
						);
					})
				)}
			</Box>
			<Text dimColor wrap="truncate">
				{line(links.length === 0 ? 'esc closes' : clickable === index ? 'the selected row is now a link: ctrl- or cmd-click opens it · enter copies · esc closes' : '↑/↓ choose · enter copies the full link (OSC 52) · o makes the row clickable (OSC 8) · esc closes', width)}
			</Text>
		</Box>
	);
}
