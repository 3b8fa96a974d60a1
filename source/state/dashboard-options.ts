import type {ServerClock} from '../wire/server-clock.js';
import type {DeadOptions} from './dead-group.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {GitProxy} from '../wire/conversation-git.js';
import type {Transport} from '../wire/transport.js';
import type {DataClock} from './data-clock.js';
import type {ProbeClient} from './spend-progress.js';
import type {PollerClient, PollerIntervals} from './conversation-poller.js';
import type {DashboardController, DashboardStore} from './dashboard-types.js';
import type {RequestBudget, RequestBudgetOptions} from './request-budget.js';
import type {StartClient} from './start-conversation.js';
import type {StoredHistoryOptions} from './stored-history.js';
import type {OpenTimelineStream} from './timeline-session.js';

/** What `createDashboard` (dashboard-store.ts) is given, and what it gives back. */

/** What the store needs of the AppClient (tests may pass a stand-in). */
export type DashboardClient = PollerClient &
	StartClient &
	Partial<GitProxy> & {
		pauseSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
		resumeSandbox(id: string, call?: {signal?: AbortSignal}): Promise<unknown>;
		/** The app server's stored copy of the events (AppClient has it); without it, stopped conversations show none. */
		storedEvents?: StoredHistoryOptions['client'];
	};

export type CreateDashboardOptions = DeadOptions & {
	appClient: DashboardClient;
	appBaseUrl: string;
	serverLabel: string;
	/** Where the key sent came from, as a "key rejected" header says it (commands/dashboard.ts keySourceOf). */
	keySource?: string | null;
	demo: boolean;
	now?: () => number;
	/**
	 * The server's connection pool, clock estimate and pacing (wire/transport.ts), shared by the
	 * app client's owner and every agent-server client this dashboard makes; closed by its owner.
	 * Default: the process's.
	 */
	transport?: Transport;
	/** The servers' clock from their `Date` headers (default: the transport's estimate): the data clock's fallback. */
	clock?: ServerClock;
	/** The clock that wrote the data (ages and lag use it); default: a new one over `clock`. One per server. */
	dataClock?: DataClock;
	/** A shared budget (to also count the HTTP client's own retries), or options for a new one. */
	budget?: RequestBudget | RequestBudgetOptions;
	quietAfterMs?: number;
	/** Spending without progress: the cost rose with no action or observation for this long (default 10 min). */
	spendAfterMs?: number;
	/** How a conversation's agent server is asked about progress (tests may pass a stand-in). */
	progressClient?: (conversation: AppConversation) => ProbeClient;
	/** The service's cap on running sandboxes, when known (the simulator's, a config value); else learned. */
	runningSandboxCap?: number | null;
	/** Identical tool calls in a row before a conversation is flagged as repeating itself. */
	repeatThreshold?: number;
	/** Between two reads of a running conversation's newest events for `repeating` (state/repeat-scan.ts). */
	repeatScanMs?: number;
	flushMs?: number;
	/** Polling cadence; see `defaultPollerIntervals`. */
	intervals?: Partial<PollerIntervals>;
	/** How long a pause/resume may wait for its status change before it is reported (default 2 min). */
	sandboxActionTimeoutMs?: number;
	/** How a timeline stream is opened; defaults to a StreamSupervisor over the conversation's agent server. */
	openStream?: OpenTimelineStream;
	/** Events a timeline keeps in memory while following (default 50,000). */
	maxTimelineEvents?: number;
	/** Bytes those events may take (default 48 MB: timeline-session.ts defaultMaxBytes). */
	maxTimelineBytes?: number;
	/** Exact strings never to show (the API key), in addition to the credential patterns. */
	secrets?: readonly string[];
	random?: () => number;
	/** Start polling at once (default). Tests may start later with `controller.refresh()`. */
	autoStart?: boolean;
};

export type Dashboard = {
	store: DashboardStore;
	controller: DashboardController;
	/** The budget every app-server request of this dashboard goes through. */
	budget: RequestBudget;
};

