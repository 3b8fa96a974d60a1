/** The conversation poller's operations (conversation-poller.ts), and which one is due next. */

export type Operation = 'walk' | 'lookup' | 'sandboxes' | 'watch' | 'specs';

/**
 * The operation due first. Fixed precedence among operations that are due at the same time: the
 * walk finds new conversations, look-ups keep visible rows fresh, sandboxes back pending actions.
 */
export function nextOperation(due: Readonly<Record<Operation, number>>): {operation: Operation; at: number} | null {
	const order: Operation[] = ['watch', 'walk', 'lookup', 'sandboxes', 'specs'];
	let best: {operation: Operation; at: number} | null = null;
	for (const operation of order) {
		const at = due[operation];
		if (!Number.isFinite(at)) continue;
		if (!best || at < best.at) best = {operation, at};
	}

	return best;
}
