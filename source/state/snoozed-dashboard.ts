import type {ConversationRow, DashboardController, DashboardSnapshot, DashboardStore} from './dashboard-types.js';
import type {SnoozeBook} from './snooze-book.js';
import {judgeSnooze, rowSignature, type Snooze, type SnoozeMark} from './snoozes.js';

/**
 * One server's store with its snoozes applied: the rows of snoozed conversations carry `snoozed`
 * (the queue, `n`/`N`, the header's count and the alerts leave them out), and the controller can
 * snooze and unsnooze. A snooze that no longer holds (its time is up, or the row changed since it
 * was taken) is dropped from the book, so it does not come back after a restart either. Wraps a
 * store from outside (dashboard-session.ts), so the store itself knows nothing of snoozes.
 *
 * Snapshot discipline as the store's: the same snapshot object while neither the store's snapshot
 * nor the book changed and no snooze's time ran out; a marked row is the same object while its
 * underlying row and its mark are.
 */
export function withSnoozes(inner: {store: DashboardStore; controller: DashboardController}, book: SnoozeBook, now: () => number = () => Date.now()): {store: DashboardStore; controller: DashboardController} {
	const marked = new WeakMap<ConversationRow, {until: number | 'change'; row: ConversationRow}>();
	let memo: {from: DashboardSnapshot; version: number; tick: number; out: DashboardSnapshot} | null = null;
	let tick = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let timerAt = Number.POSITIVE_INFINITY;
	const listeners = new Set<() => void>();
	const notify = () => {
		for (const listener of listeners) listener();
	};
	// The next timed snooze's end: the rows are marked again then (the row comes back).
	const wakeAt = (at: number) => {
		if (at >= timerAt || !Number.isFinite(at)) return;
		if (timer !== undefined) clearTimeout(timer);
		timerAt = at;
		timer = setTimeout(() => {
			timer = undefined;
			timerAt = Number.POSITIVE_INFINITY;
			tick++;
			notify();
		}, Math.min(2 ** 31 - 1, Math.max(0, at - now())));
		timer.unref?.();
	};

	const mark = (row: ConversationRow, snooze: Snooze): ConversationRow => {
		const cached = marked.get(row);
		if (cached && cached.until === snooze.until) return cached.row;
		const mark: SnoozeMark = {until: snooze.until};
		const next = {...row, snoozed: mark};
		marked.set(row, {until: snooze.until, row: next});
		return next;
	};

	const apply = (snapshot: DashboardSnapshot): DashboardSnapshot => {
		if (book.size === 0) return snapshot;
		const rows = snapshot.conversations;
		const at = now();
		let out: Map<string, ConversationRow> | null = null;
		const ended: string[] = [];
		for (const [key, snooze] of book.entries()) {
			const row = rows.get(key);
			if (!row) continue;
			if (judgeSnooze(snooze, row, at) !== 'snoozed') {
				ended.push(key);
				continue;
			}
			if (snooze.until !== 'change') wakeAt(snooze.until);
			out ??= new Map(rows);
			out.set(key, mark(row, snooze));
		}
		// Not while a snapshot is being read (React may be rendering): right after.
		if (ended.length > 0) queueMicrotask(() => ended.forEach((key) => book.drop(key)));
		return out ? {...snapshot, conversations: out} : snapshot;
	};

	const getSnapshot = (): DashboardSnapshot => {
		const from = inner.store.getSnapshot();
		if (memo && memo.from === from && memo.version === book.version && memo.tick === tick) return memo.out;
		memo = {from, version: book.version, tick, out: apply(from)};
		return memo.out;
	};

	const subscribe = (listener: () => void): (() => void) => {
		listeners.add(listener);
		const fromStore = inner.store.subscribe(listener);
		const fromBook = book.subscribe(listener);
		return () => {
			listeners.delete(listener);
			fromStore();
			fromBook();
		};
	};

	const controller: DashboardController = {
		...inner.controller,
		snooze(key, until) {
			const row = inner.store.getSnapshot().conversations.get(key);
			if (!row) return null;
			book.set(key, until === 'change' ? {until: 'change', signature: rowSignature(row), at: now()} : {until, at: now()});
			return book.writeError === null ? {until} : {until, unsaved: book.writeError};
		},
		unsnooze: (key) => book.drop(key),
		async close() {
			if (timer !== undefined) clearTimeout(timer);
			await inner.controller.close();
		},
	};
	return {store: {...inner.store, subscribe, getSnapshot}, controller};
}
