/**
 * Rows of a conversation page whose shape the client cannot read: never dropped in silence, never
 * counted as "no conversations". Each keeps what could be read (its id, when it has a string one)
 * and why it could not be read (the validation message), for the dashboard to list as unreadable.
 */

export type UnreadableRow = {
	/** The row's `id` when it had a string one, else null. Untrusted text: sanitized where shown. */
	id: string | null;
	/** Why it could not be read: the schema's complaint. */
	why: string;
};

/** How many unreadable rows are kept to be shown (the count covers all of them). */
export const keptUnreadableRows = 50;

/** An invalid item of a page (wire/schemas/common.ts InvalidItem) as an unreadable row. */
export function unreadableRow(item: unknown): UnreadableRow {
	const record = item !== null && typeof item === 'object' ? (item as {message?: unknown; raw?: unknown}) : {};
	const raw = record.raw;
	const id = raw !== null && typeof raw === 'object' ? (raw as {id?: unknown}).id : undefined;
	return {
		id: typeof id === 'string' && id.length > 0 ? id.slice(0, 64) : null,
		why: typeof record.message === 'string' ? record.message.slice(0, 300) : 'does not match the API',
	};
}

/**
 * For the all-servers view: every server's unreadable rows as one list, the same array while no
 * server's changed (the merged snapshot is compared by reference: an idle fleet does not re-render).
 */
export function unreadableMerger(): (lists: ReadonlyArray<readonly UnreadableRow[] | undefined>) => readonly UnreadableRow[] {
	let from: ReadonlyArray<readonly UnreadableRow[] | undefined> = [];
	let merged: readonly UnreadableRow[] = [];
	return (lists) => {
		if (lists.length !== from.length || lists.some((list, index) => list !== from[index])) {
			from = lists;
			merged = lists.flatMap((list) => list ?? []);
		}
		return merged;
	};
}
