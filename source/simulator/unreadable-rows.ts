import type {World} from './world.js';

/**
 * The unreadable-rows fault (faults.ts `unreadableRows(n)`): the n newest conversations at the
 * time it is set come out of search pages and look-ups in a shape no client reads (`pr_number` a
 * word, not a list of numbers), as a broken server, or one a version ahead, might send. Their ids
 * stay readable. A client must show them as unreadable, never list "no conversations".
 */

const spoiled = new WeakMap<World, ReadonlySet<string>>();

export function setUnreadableRows(world: World, count: number): void {
	const n = Math.max(0, Math.floor(count));
	spoiled.set(world, new Set(world.conversationList().slice(0, n).map((row) => row.id)));
}

/** The row's JSON as served: spoiled when the fault chose it. */
export function maybeUnreadable(world: World, id: string, json: unknown): unknown {
	return spoiled.get(world)?.has(id) ? {...(json as object), pr_number: 'seven'} : json;
}
