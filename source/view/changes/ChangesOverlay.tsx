import {memo, useEffect, useMemo, useRef, useState, useSyncExternalStore} from 'react';
import {Box, Text} from 'ink';
import {neighbourHunk} from '../../format/file-diff.js';
import {canResume, cannotResumeText} from '../../format/sandbox-advice.js';
import {sanitizeLine} from '../../format/sanitize.js';
import {padToWidth, truncateToWidth} from '../../format/width.js';
import type {ChangesSession, ChangesSnapshot} from '../../state/changes-session.js';
import {workspaceRoot} from '../../wire/git-paths.js';
import {line} from '../cells.js';
import {paint} from '../../boundary/ink-paint.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {useClipboard} from '../use-clipboard.js';
import {usePager} from '../use-pager.js';
import {countsLabel, diffLine, fileLetter, numberWidth, statusColor} from './diff-lines.js';

type Props = {
	/** The session the Dashboard opened through the controller (null: this connection cannot read changes). */
	session: ChangesSession | null;
	/** The controller can open sessions (while `session` is still null, the view is loading). */
	supported: boolean;
	/** Sanitized title of the conversation. */
	title: string;
	/** The file whose diff is shown (index into the list), or null for the list. */
	file: number | null;
	width: number;
	height: number;
	onOpenFile(index: number | null): void;
	onClose(): void;
	/** `r`: ask to resume the sandbox (the Dashboard's y/n question). */
	onResume(): void;
	/** A line for the notice (copy and pager outcomes). */
	onNotice?(text: string, level?: 'info' | 'warn'): void;
};

const unsupportedSnapshot: ChangesSnapshot = {
	conversationKey: '',
	repoDir: workspaceRoot,
	state: 'error',
	sandboxStatus: null,
	files: [],
	error: 'this server connection cannot read changes',
	invalid: 0,
	requests: 0,
};
const loadingSnapshot: ChangesSnapshot = {...unsupportedSnapshot, state: 'loading', error: null};
const noSubscribe = () => () => undefined;

/**
 * `d`: what a conversation's agent changed. First the list of files (status, path, and added and
 * removed lines once a file has been read), then, on enter, the file's diff: coloured hunks with
 * old and new line numbers, `]`/`[` between hunks, `}`/`{` between files. Only the rows on screen
 * are rendered. A sandbox that is not running is said so, with the resume key; nothing resumes
 * on its own.
 */
function ChangesOverlayImpl(props: Props) {
	const {session, title, file, width, height} = props;
	const fallback = props.supported ? loadingSnapshot : unsupportedSnapshot;
	const snapshot = useSyncExternalStore(session?.subscribe ?? noSubscribe, session?.getSnapshot ?? (() => fallback));
	const [selected, setSelected] = useState(0);
	const [offset, setOffset] = useState(0);
	// Where each file's diff was left, so going back to it lands there again.
	const offsets = useRef(new Map<number, number>());

	const files = snapshot.files;
	const current = file === null ? undefined : files[file];
	const diff = current?.diff.state === 'ready' ? current.diff.diff : null;
	const bodyHeight = Math.max(1, height - 2);

	// Read the shown file when it is opened, and again after a refresh dropped it.
	const shownState = current?.diff.state;
	useEffect(() => {
		if (file !== null && shownState === 'idle') void session?.openFile(file);
	}, [session, file, shownState]);

	const maxOffset = diff ? Math.max(0, diff.rows.length - bodyHeight) : 0;
	const top = Math.min(offset, maxOffset);
	const scrollTo = (row: number) => setOffset(Math.max(0, Math.min(maxOffset, row)));
	const openFile = (index: number | null) => {
		if (file !== null) offsets.current.set(file, top);
		setOffset(index === null ? 0 : (offsets.current.get(index) ?? 0));
		if (index !== null) setSelected(index);
		props.onOpenFile(index);
	};
	const moveSelection = (delta: number) => setSelected((index) => Math.max(0, Math.min(files.length - 1, index + delta)));
	const say = (text: string, level?: 'info' | 'warn') => props.onNotice?.(text, level);
	const copy = useClipboard(say);
	const pager = usePager(say);
	// The patch of this file in its diff, of every file in the list: read again, one request a file.
	const withPatch = (use: (patch: string, what: string) => void) => {
		if (!session || snapshot.state !== 'ready' || files.length === 0) return say(snapshot.state === 'ready' ? 'No changed files: no patch.' : 'The changed files are not read yet.');
		const indices = file === null ? undefined : [file];
		const what = file === null ? `the patch of ${files.length} file${files.length === 1 ? '' : 's'}` : `the patch of ${sanitizeLine(files[file]?.path ?? '')}`;
		say(`Reading ${what}…`);
		session.patch(indices).then(
			(patch) => use(patch, what),
			(error: unknown) => say(`No patch: ${sanitizeLine(error instanceof Error ? error.message : String(error))}`, 'warn'),
		);
	};
	const shared = {
		copyPatch: () => withPatch(copy),
		pager: () => withPatch(pager),
		refresh: () => {
			offsets.current.clear();
			setOffset(0);
			void session?.refresh();
		},
		resume: () => (snapshot.state === 'not-running' ? props.onResume() : undefined),
	};

	useKeyHandlers('changes', {
		...shared,
		up: () => moveSelection(-1),
		down: () => moveSelection(1),
		pageUp: () => moveSelection(-bodyHeight),
		pageDown: () => moveSelection(bodyHeight),
		top: () => setSelected(0),
		bottom: () => setSelected(Math.max(0, files.length - 1)),
		open: () => (files[selected] ? openFile(selected) : undefined),
		back: props.onClose,
	});
	useKeyHandlers('diff', {
		...shared,
		up: () => scrollTo(top - 1),
		down: () => scrollTo(top + 1),
		pageUp: () => scrollTo(top - bodyHeight),
		pageDown: () => scrollTo(top + bodyHeight),
		top: () => scrollTo(0),
		bottom: () => scrollTo(maxOffset),
		nextHunk: () => {
			const row = diff ? neighbourHunk(diff, top, 1) : null;
			if (row !== null) scrollTo(row);
		},
		previousHunk: () => {
			const row = diff ? neighbourHunk(diff, top, -1) : null;
			if (row !== null) scrollTo(row);
		},
		nextFile: () => (file !== null && file + 1 < files.length ? openFile(file + 1) : undefined),
		previousFile: () => (file !== null && file > 0 ? openFile(file - 1) : undefined),
		back: () => openFile(null),
	});

	const heading = `Changes · ${snapshot.repoDir}${snapshot.state === 'ready' ? ` · ${files.length} file${files.length === 1 ? '' : 's'}` : ''} · ${title}`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold color="cyan" wrap="truncate">
				{line(heading, width)}
			</Text>
			{file !== null && current ? (
				<DiffBody file={current} index={file} count={files.length} top={top} width={width} height={height - 1} />
			) : (
				<ListBody snapshot={snapshot} selected={Math.min(selected, Math.max(0, files.length - 1))} width={width} height={height - 1} />
			)}
		</Box>
	);
}

export const ChangesOverlay = memo(ChangesOverlayImpl);

function message(text: string, width: number, color?: string) {
	return (
		<Text color={color} wrap="truncate">
			{line(text, width)}
		</Text>
	);
}

function ListBody({snapshot, selected, width, height}: {snapshot: ChangesSnapshot; selected: number; width: number; height: number}) {
	switch (snapshot.state) {
		case 'loading':
			return message('Reading the changed files…', width);
		case 'not-running':
			return (
				<Box flexDirection="column">
					{snapshot.sandboxStatus === 'RUNNING' ? (
						message('The sandbox is RUNNING but shows no agent server yet; ctrl-r tries again.', width, 'yellow')
					) : (
						<>
							{message(`The sandbox is ${sanitizeLine(snapshot.sandboxStatus ?? 'not running')}: its files cannot be read while it is not RUNNING.`, width, 'yellow')}
							{/* The advice `r` follows (sandbox-advice.ts): only a PAUSED sandbox can be resumed. */}
							{canResume(snapshot.sandboxStatus)
								? message('r resumes it (asks first); nothing is resumed on its own.', width)
								: message(`It is ${sanitizeLine(cannotResumeText(snapshot.sandboxStatus))}.`, width)}
						</>
					)}
				</Box>
			);
		case 'no-repository':
			return message(`no git repository in ${sanitizeLine(snapshot.repoDir)}${lookedToo(snapshot)}`, width, 'yellow');
		case 'error':
			return (
				<Box flexDirection="column">
					{message(`Could not read the changes: ${sanitizeLine(snapshot.error ?? '')}`, width, 'red')}
					{message('ctrl-r tries again.', width)}
				</Box>
			);
		default:
			break;
	}
	if (snapshot.files.length === 0) return message(`No changes in ${sanitizeLine(snapshot.repoDir)}${lookedToo(snapshot)}.`, width);
	const rows = Math.max(1, height - 1);
	const offset = Math.max(0, Math.min(selected - Math.floor(rows / 2), snapshot.files.length - rows));
	const countWidth = 14;
	const note = snapshot.invalid > 0 ? ` · ${snapshot.invalid} unreadable entr${snapshot.invalid === 1 ? 'y' : 'ies'} left out` : '';
	return (
		<Box flexDirection="column">
			<Text dimColor wrap="truncate">
				{line(`status, path, lines added and removed (? until the file is opened: each costs a request)${note}`, width)}
			</Text>
			{snapshot.files.slice(offset, offset + rows).map((entry, row) => {
				const index = offset + row;
				const letter = fileLetter(entry);
				// A status this client does not know is shown as unknown, with the server's word for it.
				const shown = letter === '?' ? `${entry.path} (unknown status ${entry.status})` : entry.path;
				const path = truncateToWidth(sanitizeLine(shown), Math.max(1, width - countWidth - 5));
				const counts = countsLabel(entry);
				const text = `${index === selected ? '›' : ' '} ${paint(letter, {color: statusColor[letter]})} ${padToWidth(path, Math.max(1, width - countWidth - 5))} ${counts}`;
				return (
					<Text key={`${index}:${entry.path}`} inverse={index === selected} wrap="truncate">
						{text}
					</Text>
				);
			})}
		</Box>
	);
}

const identicalText = {
	added: 'An empty file was added.',
	deleted: 'An empty file was deleted.',
	both: 'The original and the modified text are the same.',
	neither: 'The server has neither an original nor a modified text for this file.',
} as const;

type DiffProps = {file: ChangesSnapshot['files'][number]; index: number; count: number; top: number; width: number; height: number};

function DiffBody({file, index, count, top, width, height}: DiffProps) {
	const letter = fileLetter(file);
	const diff = file.diff.state === 'ready' ? file.diff.diff : null;
	const digits = useMemo(() => (diff ? numberWidth(diff) : 1), [diff]);
	const rows = Math.max(1, height - 1);
	let where = '';
	if (diff && diff.rows.length > 0) {
		const hunk = (diff.rows[Math.min(top, diff.rows.length - 1)]?.hunk ?? 0) + 1;
		where = ` · hunk ${hunk}/${diff.hunkStarts.length} · rows ${top + 1}-${Math.min(diff.rows.length, top + rows)} of ${diff.rows.length}`;
	}
	const counts = diff ? ` +${diff.added} -${diff.removed}` : '';
	const header = `${letter} ${sanitizeLine(file.path)}${counts} · file ${index + 1}/${count}${where}`;
	let body;
	if (file.diff.state === 'error') body = message(`Could not read this file: ${sanitizeLine(file.diff.error)} (ctrl-r tries again)`, width, 'red');
	else if (!diff) body = message(`Reading ${sanitizeLine(file.path)}…`, width);
	else if (diff.identical) body = message(identicalText[diff.side], width);
	else {
		// Keyed by place on the screen, not by row: a page down is then the same Text nodes with new
		// strings, not every row's node removed and another made (Ink builds a layout node for each).
		body = diff.rows.slice(top, top + rows).map((row, offset) => (
			<Text key={offset} wrap="truncate">
				{diffLine(row, digits, width)}
			</Text>
		));
	}
	return (
		<Box flexDirection="column">
			<Text bold wrap="truncate">
				{line(header, width)}
			</Text>
			{body}
		</Box>
	);
}

/** The other layouts looked in (grouped or not, the default folder), so an empty answer says where it looked. */
function lookedToo(snapshot: ChangesSnapshot): string {
	const others = snapshot.looked ?? [];
	return others.length === 0 ? '' : ` (nor in ${others.map((dir) => sanitizeLine(dir)).join(', ')})`;
}
