/**
 * The list poller's intervals (state/conversation-poller.ts polls by them and holds their
 * defaults; `AGENT_TUI_POLL`, poll-tuning.ts, can set them). A type of its own so that the
 * setting, read here in config/, does not reach up into state/ for it.
 */
export type PollerIntervals = {
	searchMs: number;
	refreshMs: number;
	sandboxesMs: number;
	sandboxesPendingMs: number;
	specsMs: number;
	retryBaseMs: number;
	retryCapMs: number;
};
