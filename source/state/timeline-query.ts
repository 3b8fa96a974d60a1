import {eventKindName} from '../wire/event-fields.js';
import {eventKindNames} from '../wire/schemas/event-schemas.js';
import {type EventOf, type LoggedEvent, settleEvent, settleIf, type WireEvent} from '../wire/schemas/events.js';
import {shortEventKind} from '../wire/event-kinds.js';
import {eventSearchText} from './event-text.js';
import {cachedParser, filterTokens} from './filter-line.js';

/**
 * View-model selectors for the timeline pane and `timeline --json`: one filter line, an order,
 * and the lookups a details view needs (the observation of an action, what a condensation
 * forgot, the actions awaiting confirmation). Everything is memoised on the identity of the
 * events array (the event log makes a new array per change) so a render with nothing new is a
 * lookup, and filtering is one linear pass over the events.
 *
 * Filter language (terms ANDed, case-insensitive, `a,b` ORed within a term):
 *   kind:ActionEvent,ObservationEvent   short or fully-qualified kind; a prefix (`kind:obs`) works
 *                                       unless the value is itself a known kind name
 *   source:agent                        agent | user | environment | hook | anything the server sends
 *   tool:terminal                       tool name of actions, observations, rejections, errors
 *   pytest "two words"                  the event's text: command, path, message, error, summary
 */

export type TimelineOrder = 'asc' | 'desc';

export type TimelineFilter = {
	kinds: string[];
	sources: string[];
	tools: string[];
	words: string[];
	text: string;
};

const knownKindsLower = new Set(eventKindNames.map((name) => name.toLowerCase()));

export const parseTimelineFilter = cachedParser((text): TimelineFilter => {
	const filter: TimelineFilter = {kinds: [], sources: [], tools: [], words: [], text};
	for (const {token, field, values} of filterTokens(text)) {
		if (field === 'kind' || field === 'type') filter.kinds.push(...values.map((value) => shortEventKind(value)));
		else if (field === 'source' || field === 'from') filter.sources.push(...values);
		else if (field === 'tool') filter.tools.push(...values);
		else filter.words.push(token.toLowerCase());
	}

	return filter;
});

export function isEmptyTimelineFilter(filter: TimelineFilter): boolean {
	return filter.kinds.length + filter.sources.length + filter.tools.length + filter.words.length === 0;
}

// Few distinct kinds exist; lower-casing each once keeps the 100,000-event pass allocation-free.
const lowerKinds = new Map<string, string>();
function lowerKind(event: LoggedEvent): string {
	const name = eventKindName(event);
	let lower = lowerKinds.get(name);
	if (lower === undefined) {
		lower = name.toLowerCase();
		if (lowerKinds.size < 1000) lowerKinds.set(name, lower);
	}

	return lower;
}

function kindMatches(filter: TimelineFilter, kind: string): boolean {
	const {kinds} = filter;
	let prefixes = prefixKinds.get(kinds);
	if (prefixes === undefined) {
		// Decided once per filter, not once per event: a known kind matches only itself.
		prefixes = kinds.map((value) => !knownKindsLower.has(value));
		prefixKinds.set(kinds, prefixes);
	}
	for (let index = 0; index < kinds.length; index++) {
		const value = kinds[index]!;
		if (kind === value || (prefixes[index] && kind.startsWith(value))) return true;
	}

	return false;
}

const prefixKinds = new WeakMap<readonly string[], boolean[]>();

function toolName(event: WireEvent): string | null {
	switch (event.kind) {
		case 'ActionEvent':
		case 'ObservationEvent':
		case 'UserRejectObservation':
		case 'AgentErrorEvent': {
			return event.tool_name;
		}

		case 'HookExecutionEvent': {
			return event.tool_name ?? null;
		}

		default: {
			return null;
		}
	}
}

/**
 * Whether one event passes the filter (exported for follow mode, which tests new events one by
 * one). Kind and source come from the envelope; only a tool or text filter validates the event.
 */
export function eventMatches(logged: LoggedEvent, filter: TimelineFilter): boolean {
	if (filter.kinds.length > 0 && !kindMatches(filter, lowerKind(logged))) return false;
	if (filter.sources.length > 0 && !filter.sources.includes(logged.source.toLowerCase())) return false;
	if (filter.tools.length === 0 && filter.words.length === 0) return true;
	const event = settleEvent(logged);
	if (filter.tools.length > 0) {
		const tool = toolName(event)?.toLowerCase();
		if (!tool || !filter.tools.some((wanted) => tool.startsWith(wanted))) return false;
	}

	if (filter.words.length > 0) {
		const text = eventSearchText(event);
		for (const word of filter.words) if (!text.includes(word)) return false;
	}

	return true;
}

type Events = readonly LoggedEvent[];

type Memo = {version: number | undefined; results: Map<string, Events>};
const selectMemo = new WeakMap<Events, Memo>();

/**
 * The events that pass `filter`, in `order`. Same inputs (events array, version, filter line,
 * order) → the same array. With no filter and ascending order it is `events` itself.
 * One pass over the events; descending order walks them backwards instead of sorting.
 */
export function selectTimelineEvents(
	timeline: {events: Events; version?: number},
	filter: string | TimelineFilter,
	order: TimelineOrder = 'asc',
): Events {
	const {events, version} = timeline;
	const parsed = typeof filter === 'string' ? parseTimelineFilter(filter) : filter;
	const empty = isEmptyTimelineFilter(parsed);
	if (empty && order === 'asc') return events;
	let memo = selectMemo.get(events);
	if (!memo || memo.version !== version) {
		memo = {version, results: new Map()};
		selectMemo.set(events, memo);
	}

	const memoKey = `${order}\u0000${parsed.text}`;
	const cached = memo.results.get(memoKey);
	if (cached) return cached;
	const result: LoggedEvent[] = [];
	const candidates = parsed.kinds.length > 0 ? kindPositions(events, parsed) : null;
	if (candidates && parsed.sources.length + parsed.tools.length + parsed.words.length === 0) {
		// Only kinds: every candidate matches (it was filed under a matching kind), so the result
		// is the candidates themselves, without testing 30,000 events of 100,000 again.
		const count = candidates.length;
		result.length = count;
		for (let step = 0; step < count; step++) result[step] = events[candidates[order === 'asc' ? step : count - 1 - step]!]!;
	} else if (candidates) {
		const count = candidates.length;
		for (let step = 0; step < count; step++) {
			const event = events[candidates[order === 'asc' ? step : count - 1 - step]!]!;
			if (eventMatches(event, parsed)) result.push(event);
		}
	} else if (order === 'asc') {
		for (const event of events) if (empty || eventMatches(event, parsed)) result.push(event);
	} else {
		for (let index = events.length - 1; index >= 0; index--) {
			const event = events[index]!;
			if (empty || eventMatches(event, parsed)) result.push(event);
		}
	}

	if (memo.results.size > 10) memo.results.clear();
	memo.results.set(memoKey, result);
	return result;
}

/**
 * Ascending positions of the events whose kind the filter names, when the kinds are already filed
 * (distinctKinds, run as the filter line opens); null otherwise, and the caller tests every event.
 */
function kindPositions(events: Events, filter: TimelineFilter): ArrayLike<number> | null {
	const byKind = kindMemo.get(events)?.byKind;
	if (!byKind) return null;
	const lists: number[][] = [];
	for (const [kind, positions] of byKind) if (kindMatches(filter, kind)) lists.push(positions);
	if (lists.length === 0) return [];
	if (lists.length === 1) return lists[0]!;
	return Int32Array.from(lists.flat()).sort();
}

type ActionEvent = EventOf<'ActionEvent'>;
/** An action that waits for an answer (what `a` approves, `x` rejects). */
export type PendingAction = ActionEvent;
export type ActionResponse = EventOf<'ObservationEvent'> | EventOf<'UserRejectObservation'> | EventOf<'AgentErrorEvent'>;

/** Lookups over one events array, built in one pass the first time any of them is needed. */
type TimelineIndex = {
	byId: Map<string, number>;
	responseByActionId: Map<string, ActionResponse>;
	responseByToolCallId: Map<string, ActionResponse>;
	pending: readonly ActionEvent[] | null;
};

const indexMemo = new WeakMap<Events, TimelineIndex>();

function timelineIndex(events: Events): TimelineIndex {
	let index = indexMemo.get(events);
	if (index) return index;
	index = {byId: new Map(), responseByActionId: new Map(), responseByToolCallId: new Map(), pending: null};
	for (let position = 0; position < events.length; position++) {
		const logged = events[position]!;
		// First occurrence wins: the log is deduplicated, but a view may pass a merged array.
		if (!index.byId.has(logged.id)) index.byId.set(logged.id, position);
		// Only the answers to actions are validated here.
		const event = settleIf(logged, 'ObservationEvent') ?? settleIf(logged, 'UserRejectObservation') ?? settleIf(logged, 'AgentErrorEvent');
		if (event === undefined) continue;
		if (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') {
			if (!index.responseByActionId.has(event.action_id)) index.responseByActionId.set(event.action_id, event);
			if (!index.responseByToolCallId.has(event.tool_call_id)) index.responseByToolCallId.set(event.tool_call_id, event);
		} else {
			// Agent errors carry only the tool call id (the action may not even have parsed).
			if (!index.responseByToolCallId.has(event.tool_call_id)) index.responseByToolCallId.set(event.tool_call_id, event);
		}
	}

	indexMemo.set(events, index);
	return index;
}

/** Position of an event in `events` by id, or -1. O(1) after the first call per array. */
export function indexOfEvent(events: Events, id: string): number {
	return timelineIndex(events).byId.get(id) ?? -1;
}

/** The event with `id`, validated. */
export function findEvent(events: Events, id: string): WireEvent | undefined {
	const position = timelineIndex(events).byId.get(id);
	return position === undefined ? undefined : settleEvent(events[position]!);
}

/** The observation, rejection or agent error that answered `action`, if it has arrived. */
export function findObservationFor(events: Events, logged: LoggedEvent): ActionResponse | undefined {
	const action = settleIf(logged, 'ActionEvent');
	if (action === undefined) return undefined;
	const index = timelineIndex(events);
	return index.responseByActionId.get(action.id) ?? index.responseByToolCallId.get(action.tool_call_id);
}

/** The events a condensation dropped from the agent's context that are still in the log, in log order. */
export function forgottenEvents(events: Events, logged: LoggedEvent): LoggedEvent[] {
	const condensation = settleIf(logged, 'Condensation');
	if (condensation === undefined) return [];
	const index = timelineIndex(events);
	const positions: number[] = [];
	for (const id of condensation.forgotten_event_ids) {
		const position = index.byId.get(id);
		if (position !== undefined) positions.push(position);
	}

	positions.sort((a, b) => a - b);
	return positions.map((position) => events[position]!);
}

/**
 * Actions that nothing has answered yet (no observation, rejection or agent error): while the
 * conversation waits for confirmation these are the calls to approve or reject.
 */
export function pendingActions(events: Events): readonly ActionEvent[] {
	const index = timelineIndex(events);
	if (index.pending) return index.pending;
	const pending: ActionEvent[] = [];
	for (const logged of events) {
		const event = settleIf(logged, 'ActionEvent');
		if (event === undefined) continue;
		if (index.responseByActionId.has(event.id) || index.responseByToolCallId.has(event.tool_call_id)) continue;
		pending.push(event);
	}

	index.pending = pending;
	return pending;
}

/** The kinds of one events array: names for the picker, and where each kind's events are. */
type KindIndex = {
	kinds: readonly string[];
	/** Ascending positions of the events of each kind (lower-cased). */
	byKind: Map<string, number[]>;
};

const kindMemo = new WeakMap<Events, KindIndex>();

/** The kinds present in `events` (short names, sorted), for the kind picker. */
export function distinctKinds(events: Events): readonly string[] {
	const memo = kindMemo.get(events);
	if (memo) return memo.kinds;
	const kinds = new Set<string>();
	// The same pass files each event under its kind: a kind filter typed into the line this
	// opens then reads the matching positions instead of testing every event.
	const byKind = new Map<string, number[]>();
	for (let position = 0; position < events.length; position++) {
		const event = events[position]!;
		kinds.add(eventKindName(event));
		const kind = lowerKind(event);
		const list = byKind.get(kind);
		if (list) list.push(position);
		else byKind.set(kind, [position]);
	}
	const index = {kinds: [...kinds].sort((a, b) => a.localeCompare(b)), byKind};
	kindMemo.set(events, index);
	return index.kinds;
}
