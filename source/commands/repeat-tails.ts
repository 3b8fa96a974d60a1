import {trailingRepeat} from '../state/attention.js';
import {defaultTailLimit, type Repeat} from '../state/repeat-scan.js';
import {hasAgentServer} from '../wire/agent-base-url.js';
import {AgentClient} from '../wire/agent-client.js';
import {KeyRejectedError} from '../wire/errors.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import {note, type Io} from './io.js';
import type {Server} from './server.js';

/**
 * A model re-sending the same call, for `conversations`: the newest events of each conversation
 * whose agent runs in a running sandbox (one request each, newest first, under the server's
 * pacing), through the dashboard's detector (attention.ts trailingRepeat). A read that fails
 * leaves that row without it and says so once on stderr.
 */
export async function repeatTails(server: Server, io: Io, rows: readonly AppConversation[]): Promise<Map<string, Repeat>> {
	const found = new Map<string, Repeat>();
	const running = rows.filter(
		(row) => String(row.sandbox_status ?? '').toUpperCase() === 'RUNNING' && String(row.execution_status ?? '').toLowerCase() === 'running' && hasAgentServer(row),
	);
	let failed = 0;
	for (const row of running) {
		try {
			const client = AgentClient.fromConversation(row, server.baseUrl, {maxRetries: 0, ...(server.transport ? {transport: server.transport} : {})});
			const page = await server.pace(`repeat-tail:${row.id}`)((signal) => client.searchEvents({sortOrder: 'TIMESTAMP_DESC', limit: defaultTailLimit, signal}));
			const repeat = trailingRepeat([...page.events].reverse());
			if (repeat && repeat.count > 1) found.set(normalizeId(row.id), repeat);
		} catch (error) {
			if (error instanceof KeyRejectedError) throw error;
			failed++;
		}
	}
	if (failed > 0) note(io, `the newest events of ${failed} running conversation${failed === 1 ? '' : 's'} could not be read: repeated calls there are not known`);
	return found;
}
