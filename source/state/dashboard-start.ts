import type {AppConversation} from '../wire/schemas/app.js';
import type {StartProgress} from './dashboard-types.js';
import type {NoticeLevel} from './dashboard-notices.js';
import type {SandboxFacts} from './dashboard-sandboxes.js';
import type {RequestBudget} from './request-budget.js';
import {runStart, type StartClient, type StartInput} from './start-conversation.js';

/**
 * Starting a conversation: its own state machine (start-conversation.ts runs it), kept out of the
 * rows. The start's progress is what the service's start task said; a start the service may
 * answer by pausing other sandboxes is watched like a resume at the cap.
 */

export const idleStart: StartProgress = {state: 'idle', phases: [], error: null, conversationKey: null};

export type StartFlowOptions = {
	client: StartClient;
	budget: RequestBudget;
	secrets: readonly string[];
	now: () => number;
	sandboxes: SandboxFacts;
	/** The start's conversation is there: it joins the rows, the poller and the timeline. */
	opened: (conversation: AppConversation) => void;
	refresh: () => void;
	notice: (text: string, level: NoticeLevel) => void;
	changed: () => void;
	closed: () => boolean;
};

export class StartFlow {
	#start: StartProgress = idleStart;
	#startRun = 0;
	#startAbort: AbortController | null = null;
	readonly #options: StartFlowOptions;

	constructor(options: StartFlowOptions) {
		this.#options = options;
	}

	get progress(): StartProgress {
		return this.#start;
	}

	async startConversation(input: StartInput): Promise<void> {
		const options = this.#options;
		if (options.closed()) return;
		if (this.#start.state === 'starting') {
			options.notice('A conversation is already starting; wait for it or reset the form.', 'warn');
			return;
		}

		const run = ++this.#startRun;
		// A start may make the service pause the oldest other running sandboxes: watch for it.
		options.sandboxes.watchStart('Starting a conversation');
		const current = () => run === this.#startRun && !options.closed();
		const abort = new AbortController();
		this.#startAbort?.abort();
		this.#startAbort = abort;
		await runStart(input, {
			client: options.client,
			budget: options.budget,
			secrets: options.secrets,
			signal: abort.signal,
			current,
			phases: () => this.#start.phases,
			progress: (patch, replace) => {
				if (!current()) return;
				this.#start = replace ? {...idleStart, ...patch} : {...this.#start, ...patch};
				options.changed();
			},
			opened: (conversation) => {
				options.sandboxes.settleCapWatch(options.now());
				options.opened(conversation);
			},
			notice: (text, level) => options.notice(text, level),
			refresh: () => options.refresh(),
		});
		// Ended without opening (an ERROR, a reset): the watch waits no longer than the grace.
		if (options.sandboxes.capWatch?.resumedKey === '') options.sandboxes.settleCapWatch(options.now());
	}

	/** A start still streaming is abandoned (its result is ignored), not cancelled on the server. */
	resetStart(): void {
		this.abandon();
		this.#startAbort = null;
		this.#start = idleStart;
		this.#options.changed();
	}

	/** Its result will be ignored, and what it still reads is aborted (on reset and on close). */
	abandon(): void {
		this.#startRun++;
		this.#startAbort?.abort();
	}
}
