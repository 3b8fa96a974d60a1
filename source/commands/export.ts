import {createWriteStream} from 'node:fs';
import {once} from 'node:events';
import type {Writable} from 'node:stream';
import {storedHistoryEvents} from '../state/stored-history.js';
import {hasAgentServer} from '../wire/agent-base-url.js';
import {NotApiError} from '../wire/errors.js';
import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';
import type {WireEvent} from '../wire/schemas/events.js';
import {label} from './agent-control.js';
import {agentFor, findConversation} from './conversation-lookup.js';
import {UsageError} from './exit-codes.js';
import {note, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {Server} from './server.js';

/**
 * `agent-tui export <conversation-id> [-o FILE]`: the conversation's whole record, running or
 * not, as a zip where a server has one: while the sandbox runs, the agent server's trajectory
 * download (the newest); while it does not, the app server's `/app-conversations/{id}/download`
 * (its stored copy; it answers while PAUSED and wakes nothing), which is also read when the agent
 * server answers the download with a web page. Where neither has it, every event
 * as JSON from whichever history answers: the agent server while the sandbox runs, the app
 * server's stored copy when it does not (never resumed for this).
 */

export type HistorySource = 'agent-server' | 'app-server';

export async function runExport(server: Server, io: Io, id: string, output: string | undefined): Promise<number> {
	const conversation = await findConversation(server, io, id);
	const toFile = output !== undefined && output !== '-';
	if (!toFile && io.stdout.isTTY) throw new UsageError('export writes a file (a zip, or JSON): give -o FILE or redirect stdout');
	const agentServer = hasAgentServer(conversation);
	// The agent server's trajectory while it runs; where it answers a web page instead (a proxy in
	// front of it), the app server's stored copy, which answers whatever the status.
	const fromAgent = agentServer ? await agentFor(server, conversation).downloadTrajectory().catch((error: unknown) => (error instanceof NotApiError ? undefined : Promise.reject(error))) : undefined;
	if (fromAgent === undefined && agentServer) note(io, `${label(conversation)}: its agent server answered the trajectory download with a web page; reading the app server's stored copy instead`);
	const running = fromAgent !== undefined;
	const trajectory = running ? fromAgent : await server.app.downloadConversation(conversation.id);
	const sink = toFile ? createWriteStream(output, {mode: 0o600}) : (io.stdout as Writable);
	try {
		if (trajectory) {
			let bytes = 0;
			for await (const chunk of trajectory) {
				bytes += chunk.length;
				await write(sink, chunk);
			}
			const from = running ? '' : " from the app server's stored copy";
			note(io, `${label(conversation)}: the service's trajectory (zip, ${bytes} bytes${from})${toFile ? ` written to ${output}` : ''}`);
		} else {
			const source: HistorySource = running ? 'agent-server' : 'app-server';
			const count = await writeEvents(sink, conversation, source, historyOf(server, conversation, source), io.secrets);
			note(io, `${label(conversation)}: ${count} events as JSON from the ${source === 'agent-server' ? 'agent server' : "app server's stored copy"}${toFile ? ` written to ${output}` : ''}`);
		}
	} finally {
		if (toFile) {
			sink.end();
			await once(sink, 'close');
		}
	}
	return 0;
}

/** Every event of the conversation, oldest first, from the source that can answer now. */
function historyOf(server: Server, conversation: AppConversation, source: HistorySource): AsyncIterable<WireEvent> {
	if (source === 'agent-server') return agentFor(server, conversation).allEvents({sortOrder: 'TIMESTAMP'});
	return storedEvents(server, normalizeId(conversation.id));
}

/** Each page a request under the app server's budget (a long history is many), each event once. */
function storedEvents(server: Server, id: string): AsyncGenerator<WireEvent, void, undefined> {
	return storedHistoryEvents({client: server.app.storedEvents, conversationId: id, sortOrder: 'TIMESTAMP', pace: server.pace(`stored-events:${id}`)});
}

/** One JSON document, written as the events arrive, so a long history is never held whole. */
async function writeEvents(sink: Writable, conversation: AppConversation, source: HistorySource, events: AsyncIterable<WireEvent>, secrets: readonly string[]): Promise<number> {
	await write(sink, `{"conversation":${toJson(conversation, secrets)},"source":${JSON.stringify(source)},"events":[`);
	let count = 0;
	for await (const event of events) {
		await write(sink, `${count === 0 ? '\n' : ',\n'}${toJson(event, secrets)}`);
		count++;
	}
	await write(sink, `${count === 0 ? '' : '\n'}]}\n`);
	return count;
}

async function write(sink: Writable, chunk: string | Uint8Array): Promise<void> {
	if (!sink.write(chunk)) await once(sink, 'drain');
}
