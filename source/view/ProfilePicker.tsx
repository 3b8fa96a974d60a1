import {Box, Text} from 'ink';
import SelectInput from 'ink-select-input';
import {sanitizeLine} from '../format/sanitize.js';
import {truncateToWidth} from '../format/width.js';
import {useKeyHandlers} from './use-key-dispatch.js';

import type {ProfileChoice} from '../state/dashboard-session.js';
import {allProfiles} from '../state/server-keys.js';

export type {ProfileChoice};

type Props = {
	profiles: readonly ProfileChoice[];
	current: string | null;
	width: number;
	height: number;
	onChoose(name: string): void;
	onClose(): void;
};

/**
 * ctrl-p: the config file's profiles, by name and server (never a key). Enter switches the
 * dashboard to the chosen one; esc closes. The list itself is ink-select-input (arrows, enter).
 */
export function ProfilePicker({profiles, current, width, height, onChoose, onClose}: Props) {
	useKeyHandlers('profiles', {back: onClose});
	const items = profiles.map((profile) => ({
		key: profile.name,
		value: profile.name,
		// `*` is the all-servers view: its label says what it is.
		label: truncateToWidth(`${profile.name === current ? '● ' : '  '}${profile.name === allProfiles ? '' : `${sanitizeLine(profile.name)} · `}${sanitizeLine(profile.label)}`, Math.max(10, width - 4)),
	}));
	const initial = Math.max(0, profiles.findIndex((profile) => profile.name === current));
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate">
				{truncateToWidth('Switch to a profile (enter switches · esc closes)', width)}
			</Text>
			{items.length === 0 ? (
				<Text dimColor wrap="truncate">
					{truncateToWidth('No profiles in the config file (see the readme: "profiles").', width)}
				</Text>
			) : (
				<SelectInput items={items} initialIndex={initial} limit={Math.max(1, Math.min(items.length, height - 2))} onSelect={(item) => onChoose(item.value)} />
			)}
		</Box>
	);
}
