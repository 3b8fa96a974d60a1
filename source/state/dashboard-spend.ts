import type {AppConversation} from '../wire/schemas/app.js';
import {AgentClient} from '../wire/agent-client.js';
import {GitClient} from '../wire/git-client.js';
import {agentBaseUrl} from '../wire/agent-base-url.js';
import type {GitProxy} from '../wire/conversation-git.js';
import type {Transport} from '../wire/transport.js';
import {costPerHour, roundRate} from './spend.js';
import {type ProbeClient, SpendWatch} from './spend-progress.js';
import {gitStateReader} from './git-progress.js';

/**
 * Spend, as the rows show it: a cost rate from observed changes of each conversation's cost
 * (spend.ts: none before two observations that differ, none for a sandbox that is not RUNNING),
 * and "spending without progress" from the spend watch (spend-progress.ts), whose progress
 * includes the changed files of the repository. Both are inferences from the cost facts the
 * conversation answers carry, on the data clock.
 */

/** Spending without progress, by default: as long as `quiet`. */
export const defaultSpendAfterMs = 10 * 60_000;

export type DashboardSpendOptions = {
	appBaseUrl: string;
	afterMs?: number | undefined;
	/** Now on the data clock. */
	serverNow: () => number;
	progressClient?: (conversation: AppConversation) => ProbeClient;
	app: GitProxy | null;
	workspace: Parameters<typeof gitStateReader>[0]['workspace'];
	transported: () => {transport?: Transport};
	/** A conversation's spend verdict changed: its row is built again. */
	changed: (key: string) => void;
};

export class DashboardSpend {
	readonly #spend: SpendWatch;
	/** The changed files of a spending candidate's repository: progress for the spend watch. */
	readonly #gitState: ReturnType<typeof gitStateReader>;

	constructor(options: DashboardSpendOptions) {
		const {appBaseUrl} = options;
		this.#gitState = gitStateReader({
			app: options.app,
			workspace: options.workspace,
			agentGit: (conversation) =>
				conversation.conversation_url
					? new GitClient({baseUrl: agentBaseUrl(conversation.conversation_url, appBaseUrl), sessionApiKey: conversation.session_api_key ?? null, maxRetries: 0, ...options.transported()})
					: null,
		});
		this.#spend = new SpendWatch({
			afterMs: options.afterMs ?? defaultSpendAfterMs,
			now: options.serverNow,
			client: options.progressClient ?? ((conversation) => AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 0, ...options.transported()})),
			changed: options.changed,
			// A git change is progress too: the changed files, read as the Changes view reads them.
			gitState: (conversation, signal) => this.#gitState.read(conversation, signal),
		});
	}

	/**
	 * Records this answer's cost and gives the row's spend: its rate (rounded, null without two
	 * observations that differ or when its sandbox is not running) and the spend watch's verdict.
	 */
	rowSpend(key: string, conversation: AppConversation, live: string | null, now: number): {costPerHour: number | null; spending: ReturnType<SpendWatch['verdict']>} {
		this.#spend.observe(key, conversation, live);
		const rate = costPerHour(this.#spend.history.samples(key), now, {running: String(conversation.sandbox_status ?? '').toUpperCase() === 'RUNNING'});
		return {costPerHour: roundRate(rate), spending: this.#spend.verdict(key)};
	}

	forget(key: string): void {
		this.#spend.forget(key);
		this.#gitState.forget(key);
	}

	close(): void {
		this.#spend.close();
	}
}
