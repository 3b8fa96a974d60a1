import type {AppConversation} from '../wire/schemas/app.js';
import {executionStatuses, sandboxStatuses} from '../wire/statuses.js';
import {UsageError} from './exit-codes.js';

/**
 * `conversations --status S[,S...]` and `watch --status`: each S names an agent (execution)
 * status or, written `sandbox:S`, a sandbox status, in any case (`error`, `ERROR` and `Error` are
 * the same word). The agent and its sandbox are two things with two statuses, so a bare word means
 * the agent's: `paused` is an agent that paused, `sandbox:paused` a conversation whose sandbox is
 * paused. The two words only a sandbox can have (`starting`, `missing`) mean the sandbox bare too.
 *
 * The servers add statuses (the real one sends `deleting`; newer ones more): a well-formed word
 * that is not known is still a status to filter by, reported in `unknown` for a warning.
 */
export type StatusFilter = {
	/** Agent (execution) statuses, lower case. */
	agent: Set<string>;
	/** Sandbox statuses, upper case. */
	sandbox: Set<string>;
	/** Words that are not known statuses (as typed after the prefix), for a warning. */
	unknown: string[];
};

const agentWords = new Set<string>(executionStatuses);
const sandboxWords = new Set<string>(sandboxStatuses);
const wellFormed = /^[a-z][a-z\d_.-]{0,63}$/i;

export function parseStatusFilter(values: readonly string[]): StatusFilter | null {
	// No --status at all: no filter. --status given but empty (`""`, `,,`) is a mistake, not "all".
	if (values.length === 0) return null;
	const words = values.flatMap((value) => value.split(',')).map((word) => word.trim()).filter(Boolean);
	if (words.length === 0) {
		throw new UsageError(`--status needs a status; agent statuses: ${executionStatuses.join(', ')}; sandbox statuses: sandbox:${sandboxStatuses.join(', sandbox:').toLowerCase()}`);
	}
	const filter: StatusFilter = {agent: new Set(), sandbox: new Set(), unknown: []};
	for (const word of words) {
		const prefixed = /^(sandbox|agent|status):(.*)$/i.exec(word);
		const field = prefixed ? (prefixed[1]!.toLowerCase() === 'sandbox' ? 'sandbox' : 'agent') : null;
		const value = (prefixed ? prefixed[2]! : word).trim();
		if (!wellFormed.test(value)) {
			throw new UsageError(`"${word}" is not a status (letters, digits and _ only); agent statuses: ${executionStatuses.join(', ')}`);
		}
		const lower = value.toLowerCase();
		const upper = value.toUpperCase();
		if (field === 'sandbox' || (field === null && !agentWords.has(lower) && sandboxWords.has(upper))) {
			filter.sandbox.add(upper);
			if (!sandboxWords.has(upper)) filter.unknown.push(`sandbox:${lower}`);
		} else {
			filter.agent.add(lower);
			if (!agentWords.has(lower)) filter.unknown.push(lower);
		}
	}
	return filter;
}

/** The warning for statuses this client does not know (they still filter), or null. */
export function unknownStatusWarning(filter: StatusFilter | null): string | null {
	if (!filter || filter.unknown.length === 0) return null;
	const names = filter.unknown.map((word) => `"${word}"`).join(', ');
	const one = filter.unknown.length === 1;
	const near = filter.unknown.map(closeKnown).find((word) => word !== null);
	const hint = near ? `; did you mean "${near}"?` : '';
	return `${names} ${one ? 'is not a known status' : 'are not known statuses'} (agent: ${executionStatuses.join(', ')}; sandbox: ${sandboxStatuses.join(', ').toLowerCase()}); filtering by ${one ? 'it' : 'them'} anyway${hint}`;
}

/** A known status one or two edits away from a typed one (`runing`), or null. */
function closeKnown(word: string): string | null {
	const sandbox = word.startsWith('sandbox:');
	const bare = sandbox ? word.slice('sandbox:'.length) : word;
	const known = sandbox ? sandboxStatuses.map((status) => status.toLowerCase()) : [...executionStatuses];
	const best = known.find((candidate) => editDistance(bare, candidate) <= 2);
	return best === undefined ? null : `${sandbox ? 'sandbox:' : ''}${best}`;
}

function editDistance(a: string, b: string): number {
	let previous = Array.from({length: b.length + 1}, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
		previous = current;
	}
	return previous[b.length]!;
}

export function conversationMatchesStatus(conversation: AppConversation, filter: StatusFilter): boolean {
	const agent = conversation.execution_status?.toLowerCase();
	const sandbox = conversation.sandbox_status?.toUpperCase();
	return (agent !== undefined && filter.agent.has(agent)) || (sandbox !== undefined && filter.sandbox.has(sandbox));
}
