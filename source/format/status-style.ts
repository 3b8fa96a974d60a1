import {
	type ExecutionStatus,
	executionStatuses,
	type SandboxStatus,
	sandboxStatuses,
	type StartTaskStatus,
	startTaskStatuses,
} from '../wire/statuses.js';
import {sanitizeLine} from './sanitize.js';
import {truncateToWidth} from './width.js';

/**
 * How each status looks: a symbol, a word that says it without colour (monochrome terminals,
 * NO_COLOR, colour-blind readers), and an Ink colour name. Symbols are chosen outside the emoji
 * set: ⚠ ✔ ▶ ⏸ are emoji-capable and some terminals draw them two cells wide while string-width
 * (and so Ink) counts one, which shifts every column after them. Values the lists do not know
 * (the servers add statuses) are shown raw, sanitized, in a neutral colour, never dropped.
 */

export type StatusColor = 'red' | 'yellow' | 'green' | 'cyan' | 'blue' | 'magenta' | 'gray';

export type StatusStyle = {
	readonly symbol: string;
	/** Reads on its own: `waiting`, `error`, `running`. */
	readonly word: string;
	/** `${symbol} ${word}`. */
	readonly label: string;
	/** A longer phrase for help text and progress lines. */
	readonly description: string;
	readonly color: StatusColor;
	/** False for values outside the known lists (and for a missing status). */
	readonly known: boolean;
};

type Look = readonly [symbol: string, word: string, color: StatusColor, description: string];

function style([symbol, word, color, description]: Look, known = true): StatusStyle {
	return {symbol, word, label: `${symbol} ${word}`, description, color, known};
}

const executionLooks: Record<ExecutionStatus, Look> = {
	waiting_for_confirmation: ['◆', 'waiting', 'yellow', 'waiting for you to approve or reject an action'],
	error: ['✗', 'error', 'red', 'stopped with an error'],
	stuck: ['◌', 'stuck', 'magenta', 'detected as stuck in a loop'],
	running: ['▸', 'running', 'cyan', 'running'],
	paused: ['‖', 'paused', 'blue', 'paused'],
	idle: ['○', 'idle', 'gray', 'idle, waiting for a message'],
	finished: ['✓', 'finished', 'green', 'finished'],
	deleting: ['⊘', 'deleting', 'gray', 'being deleted'],
};

const sandboxLooks: Record<SandboxStatus, Look> = {
	STARTING: ['◐', 'starting', 'cyan', 'sandbox starting'],
	RUNNING: ['●', 'running', 'green', 'sandbox running'],
	// Not ‖: that is an agent that paused. A paused sandbox is another thing with another look.
	PAUSED: ['□', 'paused', 'blue', 'sandbox paused'],
	ERROR: ['✗', 'error', 'red', 'sandbox failed'],
	MISSING: ['∅', 'missing', 'gray', 'sandbox gone'],
	// The provider cannot say: neither running nor stopped, its own word.
	UNKNOWN: ['?', 'unknown', 'yellow', 'sandbox status unknown (its provider is unavailable)'],
};

const startTaskLooks: Record<StartTaskStatus, Look> = {
	WORKING: ['◐', 'working', 'cyan', 'accepted, working'],
	WAITING_FOR_SANDBOX: ['◐', 'sandbox', 'cyan', 'waiting for a sandbox'],
	PREPARING_REPOSITORY: ['◐', 'repository', 'cyan', 'preparing the repository'],
	RUNNING_SETUP_SCRIPT: ['◐', 'setup', 'cyan', 'running the setup script'],
	SETTING_UP_GIT_HOOKS: ['◐', 'git hooks', 'cyan', 'setting up git hooks'],
	SETTING_UP_SKILLS: ['◐', 'skills', 'cyan', 'setting up skills'],
	STARTING_CONVERSATION: ['◐', 'starting', 'cyan', 'starting the conversation'],
	READY: ['✓', 'ready', 'green', 'ready'],
	ERROR: ['✗', 'error', 'red', 'failed to start'],
};

const noStatus = style(['·', 'none', 'gray', 'no status'], false);

/** Longest raw value shown for an unknown status, in cells. */
const unknownWordWidth = 24;

function unknownStyle(raw: string): StatusStyle {
	const word = truncateToWidth(sanitizeLine(raw), unknownWordWidth);
	return style(['?', word, 'gray', `unknown status ${word}`], false);
}

/** Styles are built once: rows ask for them on every render. */
function styles<T extends string>(values: readonly T[], looks: Record<T, Look>): Map<string, StatusStyle> {
	return new Map(values.map((value) => [value, style(looks[value])]));
}

const executionStyles = styles(executionStatuses, executionLooks);
const sandboxStyles = styles(sandboxStatuses, sandboxLooks);
const startTaskStyles = styles(startTaskStatuses, startTaskLooks);

function lookUp(known: Map<string, StatusStyle>, status: string | null | undefined): StatusStyle {
	if (status === null || status === undefined || status === '') return noStatus;
	return known.get(status) ?? unknownStyle(status);
}

export function executionStatusStyle(status: string | null | undefined): StatusStyle {
	return lookUp(executionStyles, status);
}

export function sandboxStatusStyle(status: string | null | undefined): StatusStyle {
	return lookUp(sandboxStyles, status);
}

export function startTaskStatusStyle(status: string | null | undefined): StatusStyle {
	return lookUp(startTaskStyles, status);
}

/**
 * Triage order, lower first: waiting for confirmation (a person is blocking the agent), then
 * errors, stuck agents, sandboxes in ERROR or MISSING, running ones, then everything else.
 */
export function attentionRank(executionStatus: string | null | undefined, sandboxStatus: string | null | undefined): number {
	if (executionStatus === 'waiting_for_confirmation') return 0;
	if (executionStatus === 'error') return 1;
	if (executionStatus === 'stuck') return 2;
	if (sandboxStatus === 'ERROR' || sandboxStatus === 'MISSING') return 3;
	if (executionStatus === 'running') return 4;
	return 5;
}
