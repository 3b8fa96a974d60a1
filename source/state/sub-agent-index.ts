/**
 * Which conversations are whose sub-conversations, by key, as the rows say
 * (`parent_conversation_id`). The store asks it for a parent's children when it builds the
 * parent's row (a child that needs you raises its parent), and which parents to rebuild when a
 * child's row changed or went away. A parent need not be loaded: a child's parent may be a
 * conversation the list has not reached yet.
 */
export class SubAgentIndex {
	readonly #children = new Map<string, Set<string>>();
	readonly #parentOf = new Map<string, string>();

	/** Records the child's parent (null: top-level); returns the parents it was and is under. */
	link(childKey: string, parentKey: string | null): string[] {
		const before = this.#parentOf.get(childKey) ?? null;
		if (before === parentKey) return parentKey ? [parentKey] : [];
		if (before) this.#remove(childKey, before);
		if (parentKey && parentKey !== childKey) {
			this.#parentOf.set(childKey, parentKey);
			const set = this.#children.get(parentKey);
			if (set) set.add(childKey);
			else this.#children.set(parentKey, new Set([childKey]));
		}
		return [before, parentKey].filter((key): key is string => key !== null && key !== childKey);
	}

	/** Forgets a conversation; returns the parent it was under, if any. */
	unlink(childKey: string): string | null {
		const before = this.#parentOf.get(childKey) ?? null;
		if (before) this.#remove(childKey, before);
		return before;
	}

	children(parentKey: string): ReadonlySet<string> {
		return this.#children.get(parentKey) ?? empty;
	}

	parentOf(childKey: string): string | null {
		return this.#parentOf.get(childKey) ?? null;
	}

	#remove(childKey: string, parentKey: string): void {
		this.#parentOf.delete(childKey);
		const set = this.#children.get(parentKey);
		set?.delete(childKey);
		if (set?.size === 0) this.#children.delete(parentKey);
	}
}

const empty: ReadonlySet<string> = new Set();
