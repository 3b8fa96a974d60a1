import type {EventLog} from '../state/event-log.js';
import type {EventFilter} from '../state/server-event-filter.js';
import {readStoredHistory} from '../state/stored-history.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {WireEvent} from '../wire/schemas/events.js';
import {historyProgress} from './history-progress.js';
import {warnInvalidItems} from './invalid-warnings.js';
import type {Io} from './io.js';
import type {Server} from './server.js';

/**
 * The whole stored history of a conversation whose sandbox is not running, in (timestamp, id)
 * order, filtered as the agent server would, each page a request under the app server's budget.
 * Also used by `--follow` before it waits for the sandbox (follow.ts), with `log` to continue on.
 */
export async function readStoredEvents(
	server: Server,
	io: Io,
	conversation: AppConversation,
	filter: EventFilter,
	sortOrder: 'TIMESTAMP' | 'TIMESTAMP_DESC',
	log?: EventLog,
): Promise<WireEvent[]> {
	const progress = historyProgress(io);
	try {
		return await readStoredHistory({
			client: server.app.storedEvents,
			conversationId: conversation.id,
			filter,
			sortOrder,
			pace: server.pace(`stored-events:${conversation.id}`),
			onPage: progress.onPage,
			onInvalid: (items) => warnInvalidItems(io, items, 'a stored event does not match the API'),
			...(log ? {log} : {}),
		});
	} finally {
		progress.done();
	}
}
