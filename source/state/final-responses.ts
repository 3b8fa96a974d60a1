import {hasAgentServer} from '../wire/agent-base-url.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {BudgetClosedError, type RequestBudget} from './request-budget.js';

/**
 * The agent's last answer per conversation (`agent_final_response`), for the list to show while
 * the sandbox runs. Read only for rows on screen whose sandbox is RUNNING, each through the
 * server's request budget at background priority (polls and actions go first), and sparingly:
 * again only when the conversation changed since the last read (its `updated_at`) and
 * `minIntervalMs` has passed, and never more than `perMinute` reads in any minute, so the answers
 * take a bounded share of the budget. A failed read keeps the last answer; a row that leaves the
 * screen keeps its answer until it is read again.
 */

export type FinalResponseClient = {finalResponse(call?: {signal?: AbortSignal}): Promise<string>};

export type FinalResponsesOptions = {
	budget: RequestBudget;
	conversation(key: string): AppConversation | undefined;
	client(conversation: AppConversation): FinalResponseClient;
	/** An answer arrived or changed. */
	onChange(): void;
	now?: () => number;
	/** Shortest time between two reads of one conversation (default 30 s). */
	minIntervalMs?: number;
	/** Most reads in any 60 s, all conversations together (default 20: a fifth of the hosted budget). */
	perMinute?: number;
};

type Known = {text: string; updatedAt: string | null; readAt: number};

export class FinalResponses {
	readonly #options: FinalResponsesOptions;
	readonly #now: () => number;
	readonly #known = new Map<string, Known>();
	readonly #reads: number[] = [];
	#answers: ReadonlyMap<string, string> = new Map();
	#visible: readonly string[] = [];
	#closed = false;

	constructor(options: FinalResponsesOptions) {
		this.#options = options;
		this.#now = options.now ?? (() => Date.now());
	}

	/** Every answer known, by conversation key; a new Map whenever one changed. */
	get answers(): ReadonlyMap<string, string> {
		return this.#answers;
	}

	/** The rows on screen: those whose sandbox runs and whose answer may be out of date are read. */
	show(keys: readonly string[]): void {
		this.#visible = keys;
		this.#readDue();
	}

	/** A poll brought news: rows on screen that changed may have a new answer. */
	changed(): void {
		this.#readDue();
	}

	forget(key: string): void {
		if (!this.#known.delete(key)) return;
		this.#publish();
	}

	close(): void {
		this.#closed = true;
	}

	#readDue(): void {
		if (this.#closed) return;
		const now = this.#now();
		const minInterval = this.#options.minIntervalMs ?? 30_000;
		for (const key of this.#visible) {
			const conversation = this.#options.conversation(key);
			if (!conversation || !hasAgentServer(conversation)) continue;
			const known = this.#known.get(key);
			if (known && (known.updatedAt === (conversation.updated_at ?? null) || now - known.readAt < minInterval)) continue;
			if (this.#options.budget.busy(this.#budgetKey(key))) continue;
			if (!this.#roomThisMinute(now)) return;
			this.#reads.push(now);
			this.#read(key, conversation);
		}
	}

	#roomThisMinute(now: number): boolean {
		while (this.#reads.length > 0 && now - this.#reads[0]! >= 60_000) this.#reads.shift();
		return this.#reads.length < (this.#options.perMinute ?? 20);
	}

	#budgetKey(key: string): string {
		return `final-response:${key}`;
	}

	#read(key: string, conversation: AppConversation): void {
		const updatedAt = conversation.updated_at ?? null;
		this.#options.budget
			.schedule(this.#budgetKey(key), (signal) => this.#options.client(conversation).finalResponse({signal}), 'background')
			.then(
				(text) => {
					if (this.#closed) return;
					const previous = this.#known.get(key);
					this.#known.set(key, {text, updatedAt, readAt: this.#now()});
					if (previous?.text !== text) this.#publish();
				},
				(error: unknown) => {
					if (this.#closed || error instanceof BudgetClosedError) return;
					// Kept as it was; tried again once the conversation changes and the interval passed.
					const previous = this.#known.get(key);
					this.#known.set(key, {text: previous?.text ?? '', updatedAt, readAt: this.#now()});
				},
			);
	}

	#publish(): void {
		const answers = new Map<string, string>();
		for (const [key, known] of this.#known) if (known.text) answers.set(key, known.text);
		this.#answers = answers;
		this.#options.onChange();
	}
}
