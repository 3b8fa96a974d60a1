import {normalizeId} from '../wire/ids.js';
import type {DashboardSnapshot} from '../state/dashboard-types.js';
import type {StatusTransition} from '../state/status-transitions.js';
import {causeJson, causeOf} from '../state/causes.js';

/**
 * `watch` prints a sandbox's new status with its reason (`error: ImagePullBackOff`). A
 * conversation's copy of its sandbox's status comes in with the conversation, the reason
 * (`status_detail`) only with the sandbox list, which the store then reads at once; a transition
 * into a status that may have a reason (not RUNNING, PAUSED or MISSING) waits until the sandbox
 * list shows that status, or `maxWaitMs`, and goes out with the reason then known (or null).
 */

const noReason = new Set(['RUNNING', 'PAUSED', 'MISSING']);

type Held = {transition: StatusTransition; sandboxId: string | null; since: number};

export class SandboxReasonWait {
	readonly #held: Held[] = [];

	constructor(private readonly maxWaitMs = 20_000) {}

	/** The transitions to print now, in order; the rest are held for their reason. */
	take(incoming: readonly StatusTransition[], snapshot: DashboardSnapshot, now: number): StatusTransition[] {
		for (const transition of incoming) {
			const row = snapshot.conversations.get(transition.id);
			this.#held.push({transition, sandboxId: row?.conversation.sandbox_id ?? null, since: now});
		}
		const ready: StatusTransition[] = [];
		for (let index = 0; index < this.#held.length; index++) {
			const held = this.#held[index]!;
			const status = held.transition.to.toUpperCase();
			const waits = held.transition.which === 'sandbox' && !noReason.has(status) && held.sandboxId !== null;
			const sandbox = held.sandboxId === null ? undefined : snapshot.sandboxes.get(normalizeId(held.sandboxId))?.sandbox;
			const listed = sandbox !== undefined && String(sandbox.status).toUpperCase() === status;
			if (waits && !listed && now - held.since < this.maxWaitMs) continue;
			ready.push(listed ? withReason(held.transition, sandbox.status_detail ?? null, snapshot) : held.transition);
			this.#held.splice(index--, 1);
		}
		return ready;
	}

	/** Everything held, in order, each with the reason the list gives by now (or none): watch is ending. */
	flush(snapshot: DashboardSnapshot): StatusTransition[] {
		return this.take([], snapshot, Number.POSITIVE_INFINITY);
	}

	get holding(): boolean {
		return this.#held.length > 0;
	}
}

/** The transition with the reason the sandbox list gives, in its detail and in its cause (`sandbox:ERROR:OOMKilled`, as the queue groups it). */
function withReason(transition: StatusTransition, detail: string | null, snapshot: DashboardSnapshot): StatusTransition {
	const row = snapshot.conversations.get(transition.id);
	const cause = row ? causeJson(causeOf({...row, sandboxDetail: detail})) : transition.cause;
	return {...transition, sandbox_status_detail: detail, cause};
}
