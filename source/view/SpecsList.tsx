import {memo} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import type {SandboxSpec} from '../wire/schemas/app.js';
import {cellLeft, line} from './cells.js';

type Props = {specs: readonly SandboxSpec[]; width: number; height: number};

/** Rows the specs list wants: a title plus one per spec, at most a quarter of the pane. */
export function specsRows(count: number, paneHeight: number): number {
	if (paneHeight < 8) return 0;
	return 1 + Math.min(Math.max(1, count), Math.max(1, Math.floor(paneHeight / 4)));
}

/** The sandbox specs the server offers: id, working directory and command. */
function SpecsListImpl({specs, width, height}: Props) {
	if (height <= 0) return null;
	const idWidth = Math.min(24, Math.max(10, Math.floor(width * 0.25)));
	const dirWidth = Math.min(24, Math.max(8, Math.floor(width * 0.25)));
	const shown = specs.slice(0, Math.max(0, height - 1));
	const hidden = specs.length - shown.length;
	return (
		<Box flexDirection="column" height={height} overflow="hidden">
			<Text bold wrap="truncate">
				{line(`Sandbox specs (${specs.length})${hidden > 0 ? ` · ${hidden} more not shown` : ''}`, width)}
			</Text>
			{specs.length === 0 ? (
				<Text dimColor wrap="truncate">
					{line('  none reported by the server', width)}
				</Text>
			) : (
				shown.map((spec) => (
					<Text key={spec.id} wrap="truncate">
						{line(
							`  ${cellLeft(sanitizeLine(spec.id), idWidth)} ${cellLeft(spec.working_dir ? sanitizeLine(spec.working_dir) : '—', dirWidth)} ${
								spec.command && spec.command.length > 0 ? sanitizeLine(spec.command.join(' ')) : '(default command)'
							}`,
							width,
						)}
					</Text>
				))
			)}
		</Box>
	);
}

export const SpecsList = memo(SpecsListImpl);
