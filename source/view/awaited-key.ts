import type {DashboardSnapshot} from '../state/dashboard-types.js';
import {keyOf} from './keymap.js';
import type {PaneId, TargetVerb} from './view-state.js';

/**
 * Which lists a key's plan reads, and whether they have arrived. A key pressed before they have
 * (the first seconds after start, a slow server) is planned when they arrive; until then a
 * missing row means "not here yet", not "not there", and a plan made from it would be wrong
 * ("not loaded, try again", "no other conversation in it", "no links").
 */

type Lists = {conversations: boolean; sandboxes: boolean};

const needs: Record<TargetVerb, Lists> = {
	// The question names the sandbox and counts the conversations in it.
	pause: {conversations: true, sandboxes: true},
	resume: {conversations: true, sandboxes: true},
	// The question says which other conversations of the sandbox keep running.
	interrupt: {conversations: true, sandboxes: true},
	continueAgent: {conversations: true, sandboxes: true},
	approve: {conversations: true, sandboxes: false},
	reject: {conversations: true, sandboxes: false},
	nudge: {conversations: true, sandboxes: false},
	changes: {conversations: true, sandboxes: false},
	// The links are the sandbox's exposed URLs.
	links: {conversations: true, sandboxes: true},
};

type Snapshot = Pick<DashboardSnapshot, 'conversations' | 'conversationsListed' | 'sandboxes' | 'sandboxesListed'>;

/** The list `verb` pressed on `key` (in `pane`) still waits for, named for a person; null when it can be planned now. */
export function awaitedList(snapshot: Snapshot, verb: TargetVerb, pane: PaneId, key: string | null | undefined): string | null {
	const need = needs[verb];
	// A conversation already here (the first page, a look-up) needs no whole list; in the
	// sandboxes pane the target is a sandbox, whose row says which conversations use it.
	if (need.conversations && pane !== 'sandboxes' && !snapshot.conversationsListed && !(key && snapshot.conversations.has(key))) return 'the conversation list';
	if (need.sandboxes && !snapshot.sandboxesListed) return 'the sandbox list';
	return null;
}

const what: Record<TargetVerb, string> = {
	pause: 'the question follows',
	resume: 'the question follows',
	interrupt: 'the question follows',
	continueAgent: 'the question follows',
	approve: 'the question follows',
	reject: 'the question follows',
	nudge: 'the message field opens',
	changes: 'the changes open',
	links: 'the links open',
};

/** The notice while a key waits: what it waits for and what happens then (never "try again"). */
export function awaitingText(verb: TargetVerb, list: string): string {
	return `${keyOf(verb)}: waiting for ${list}; ${what[verb]} when it arrives (esc cancels).`;
}
