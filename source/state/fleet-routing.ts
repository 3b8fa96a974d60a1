import type {DashboardController, DashboardSnapshot, ResumeStepReport, SandboxRow} from './dashboard-types.js';
import {fleetDelete} from './delete-plan.js';
import type {SearchListener, SearchProgress} from './event-search.js';
import {type FleetMember, qualifiedSandbox} from './fleet-merge.js';
import {sumProgress} from './fleet-parts.js';
import {qualifyKey, splitKey} from './server-keys.js';

/**
 * The controller half of the all-servers view (fleet-store.ts): each call on a qualified key goes
 * to the server the row came from, with that server's own key; calls on every row go to every
 * server; one timeline is open at a time, on the server of its conversation.
 */

/** What the routing changes and the merge reads (fleet-merge.ts). */
export type FleetRoutingState = {
	timelineServer: FleetMember | null;
	notice: DashboardSnapshot['notice'];
};

type Hooks = {
	/** The merged snapshot is due again (something the merge reads changed). */
	touch(): void;
	now(): number;
	/** Stops merging: the view is gone. */
	close(): void;
};

export function fleetController(members: readonly FleetMember[], state: FleetRoutingState, hooks: Hooks): DashboardController {
	const names = members.map((member) => member.name);
	const {touch} = hooks;

	const memberOf = (qualified: string): {member: FleetMember; key: string} | null => {
		const split = splitKey(qualified, names);
		const member = split ? members.find((candidate) => candidate.name === split.server) : undefined;
		return split && member ? {member, key: split.key} : null;
	};

	const routedTo = (qualified: string): {member: FleetMember; key: string} => {
		const found = memberOf(qualified);
		if (!found) throw new Error(`${qualified.slice(0, 8)} is not a row of any server in this view`);
		return found;
	};

	/** Calls a controller method that may be missing (the view says "not available" then). */
	const routed = <R>(qualified: string, call: (controller: DashboardController, key: string) => R): R => {
		const {member, key} = routedTo(qualified);
		return call(member.controller, key);
	};

	const grouped = (keys: readonly string[]): Map<FleetMember, string[]> => {
		const groups = new Map<FleetMember, string[]>(members.map((member) => [member, []]));
		for (const qualified of keys) {
			const found = memberOf(qualified);
			if (found) groups.get(found.member)!.push(found.key);
		}
		return groups;
	};

	const setNotice = (text: string, level: 'info' | 'warn' | 'error'): void => {
		state.notice = {text, level, at: hooks.now()};
		touch();
	};

	/** One search per server over its own rows; hits come back with qualified keys, progress summed. */
	const searchEveryServer = (keys: readonly string[], query: string, listener: SearchListener): (() => void) => {
		const progress = new Map<FleetMember, SearchProgress>();
		const cancels: Array<() => void> = [];
		const groups = [...grouped(keys)].filter(([, own]) => own.length > 0);
		for (const [member] of groups) progress.set(member, {searched: 0, stored: 0, skipped: 0, failed: 0, total: 0, done: false, lastError: null});
		for (const [member, own] of groups) {
			cancels.push(
				member.controller.searchAcross!(own, query, {
					onHit: (hit) => listener.onHit({...hit, conversationKey: qualifyKey(hit.conversationKey, member.name)}),
					onProgress: (report) => {
						progress.set(member, report);
						listener.onProgress(sumProgress([...progress.values()], member.name, report));
					},
				}),
			);
		}
		if (groups.length === 0) listener.onProgress({searched: 0, stored: 0, skipped: 0, failed: 0, total: 0, done: true, lastError: null});
		return () => {
			for (const cancel of cancels) cancel();
		};
	};

	const timeline = () => state.timelineServer?.controller;
	const first = members[0]!.controller;
	return {
		refresh: () => {
			for (const member of members) member.controller.refresh();
		},
		setVisibleConversations: (keys) => {
			for (const [member, own] of grouped(keys)) member.controller.setVisibleConversations(own);
		},
		openTimeline: (qualified) => {
			const {member, key} = routedTo(qualified);
			if (state.timelineServer && state.timelineServer !== member) state.timelineServer.controller.closeTimeline();
			state.timelineServer = member;
			member.controller.openTimeline(key);
			touch();
		},
		closeTimeline: () => {
			timeline()?.closeTimeline();
			state.timelineServer = null;
			touch();
		},
		loadOlderEvents: () => timeline()?.loadOlderEvents?.(),
		loadNewerEvents: () => timeline()?.loadNewerEvents?.(),
		timelineToNewest: () => timeline()?.timelineToNewest?.(),
		pinTimeline: (range) => timeline()?.pinTimeline?.(range),
		pauseSandbox: (qualified) => routed(qualified, (own, key) => own.pauseSandbox(key)),
		resumeSandbox: (qualified) => routed(qualified, (own, key) => own.resumeSandbox(key)),
		startConversation: async () => {
			// Where it would go is not clear in a list of every server: one profile's view says it.
			setNotice('Starting a conversation needs one server: switch to its profile (ctrl-p), then press +.', 'warn');
		},
		resetStart: () => {
			for (const member of members) member.controller.resetStart();
		},
		notice: (text, level) => setNotice(text, level),
		dismissNotice: () => {
			state.notice = null;
			for (const member of members) member.controller.dismissNotice();
			touch();
		},
		...(first.snooze ? {snooze: (qualified: string, until: number | 'change') => routed(qualified, (own, key) => own.snooze?.(key, until) ?? null)} : {}),
		...(first.unsnooze ? {unsnooze: (qualified: string) => routed(qualified, (own, key) => own.unsnooze?.(key) ?? false)} : {}),
		...(first.approve ? {approve: (qualified: string) => routed(qualified, (own, key) => own.approve!(key))} : {}),
		...(first.reject ? {reject: (qualified: string, reason?: string) => routed(qualified, (own, key) => own.reject!(key, reason))} : {}),
		...(first.pendingActions ? {pendingActions: (qualified: string) => routed(qualified, (own, key) => own.pendingActions!(key))} : {}),
		...(first.nudge ? {nudge: (qualified: string, text: string) => routed(qualified, (own, key) => own.nudge!(key, text))} : {}),
		...(first.interrupt ? {interrupt: (qualified: string) => routed(qualified, (own, key) => own.interrupt!(key))} : {}),
		...(first.continueAgent ? {continueAgent: (qualified: string) => routed(qualified, (own, key) => own.continueAgent!(key))} : {}),
		...(first.askAgent
			? {askAgent: (qualified: string, question: string, signal?: AbortSignal) => routed(qualified, (own, key) => own.askAgent!(key, question, signal))}
			: {}),
		...(first.conversationLink ? {conversationLink: (qualified: string) => routed(qualified, (own, key) => own.conversationLink!(key))} : {}),
		...fleetDelete(first, grouped),
		// Plans on fresh data (state/fresh-plan.ts), server by server: each reads its own list again
		// and resumes one step at a time; the rows come back keyed as this view keys them.
		...(first.freshSandboxes
			? {
				freshSandboxes: async () => {
					const merged = new Map<string, SandboxRow>();
					for (const member of members) {
						const own = await member.controller.freshSandboxes?.();
						for (const row of own?.values() ?? []) merged.set(qualifyKey(row.key, member.name), qualifiedSandbox(member, row));
					}
					return merged;
				},
			}
			: {}),
		...(first.resumeInSteps
			? {
				resumeInSteps: async (keys: readonly string[], planned: ReadonlyMap<string, readonly string[]> | null, report: (report: ResumeStepReport) => void, stopped: () => boolean) => {
					for (const [member, own] of grouped(keys)) {
						if (own.length === 0 || stopped() || !member.controller.resumeInSteps) continue;
						const q = (key: string) => qualifyKey(key, member.name);
						const ownPlanned = planned ? new Map(own.map((key) => [key, (planned.get(q(key)) ?? []).map((victim) => splitKey(victim, names)?.key ?? victim)] as const)) : null;
						await member.controller.resumeInSteps(own, ownPlanned, (step) => report(qualifiedStep(step, q)), stopped);
					}
				},
			}
			: {}),
		...(first.openChanges ? {openChanges: (qualified: string) => routed(qualified, (own, key) => own.openChanges!(key))} : {}),
		...(first.searchAcross ? {searchAcross: (keys: readonly string[], query: string, listener: SearchListener) => searchEveryServer(keys, query, listener)} : {}),
		close: async () => hooks.close(),
	};
}

/** A resume step's report with its sandbox keys as the all-servers view keys them. */
function qualifiedStep(step: ResumeStepReport, q: (key: string) => string): ResumeStepReport {
	if (step.state === 'sent') return {...step, key: q(step.key), pauses: step.pauses.map(q), planned: step.planned ? step.planned.map(q) : null};
	if (step.state === 'done') return {...step, key: q(step.key), paused: step.paused.map(q)};
	return {...step, key: q(step.key)};
}
