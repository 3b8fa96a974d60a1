import {setTimeout as sleep} from 'node:timers/promises';
import {startTaskError, type StartTask} from '../wire/schemas/app.js';
import {describeIssues} from '../wire/schemas/common.js';
import {createRequestFor, createRequestSchema, parsePluginFlag, type CreateRequest, type PluginSpec} from '../wire/schemas/create-request.js';
import {findConversation} from './conversation-lookup.js';
import {eventLine} from './event-line.js';
import {MissingError, StartFailedError, UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {followDeadline} from './deadline.js';
import {followConversation} from './follow.js';
import {note, printLine, printProgress, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {Server} from './server.js';

/**
 * `agent-tui start --message TEXT [--repo OWNER/REPO] [--plugin SPEC]... [--wait] [--json]`.
 *
 * Streams the start task's phases (stderr lines, or NDJSON snapshots on stdout with --json), then
 * prints the new conversation id on stdout. ERROR ends with its detail and exit code 6. A V1
 * server without stream-start is started with the plain create and its task polled (the client
 * does it, with a warning); the V0 start call is gone from the service (2026-04-19) and not used.
 * With --wait it then follows the conversation like `events --follow` (event lines on stderr,
 * so stdout stays the id; with --json, NDJSON events on stdout) and exits 0 when it finished,
 * 6 when it ended in error, stuck, or lost its sandbox.
 */
export async function runStart(server: Server, io: Io, flags: CommandFlags): Promise<number> {
	const request = buildRequest(flags);
	const conversationId = await startV1(server, io, request, flags.json);
	if (!flags.json) printText(io, conversationId);
	if (!flags.wait) return 0;

	const conversation = await findConversationSoon(server, io, conversationId);
	const end = await followConversation({
		server,
		io,
		deadlineMs: followDeadline(flags),
		conversation,
		filter: {},
		onEvent: (event) => (flags.json ? printLine(io, toJson(event, io.secrets)) : printProgress(io, eventLine(event))),
	});
	if (end.reason === 'interrupted') return end.exitCode;
	if (end.reason === 'execution' && end.status === 'finished') return 0;
	throw new StartFailedError(`conversation ${conversationId} ended ${end.reason === 'execution' ? `with status ${end.status}` : `with its sandbox ${end.status}`}`);
}

function buildRequest(flags: CommandFlags): CreateRequest {
	const message = flags.message?.trim();
	if (!message) throw new UsageError('start needs --message TEXT');
	let plugins: PluginSpec[];
	try {
		plugins = flags.plugin.map((spec) => parsePluginFlag(spec));
	} catch (error) {
		throw new UsageError(`--plugin: ${(error as Error).message}`);
	}
	const request = createRequestFor({message, repository: flags.repo, plugins});
	const checked = createRequestSchema.safeParse(request);
	if (!checked.success) throw new UsageError(`cannot start: ${describeIssues(checked.error)}`);
	return checked.data;
}

async function startV1(server: Server, io: Io, request: CreateRequest, json: boolean): Promise<string> {
	let last: StartTask | null = null;
	const show = (task: StartTask) => {
		if (json) printLine(io, toJson(task, io.secrets));
		else if (task.status !== last?.status) note(io, `start: ${phaseText(task, last)}`);
		last = task;
	};
	try {
		for await (const task of server.app.streamStart(request)) {
			show(task);
			if (task.status === 'READY' || task.status === 'ERROR') break;
		}
	} catch (error) {
		// A stream that broke after the task existed: the task itself knows how it ended.
		if (last === null) throw error;
		note(io, `the start stream broke off (${(error as Error).message}); checking the task`);
	}
	const final = last as StartTask | null;
	if (final === null) throw new StartFailedError('the server ended the start stream before reporting any phase');
	const settled = final.status === 'READY' || final.status === 'ERROR' ? final : await pollTask(server, final, show);
	if (settled.status === 'ERROR') throw new StartFailedError(`start failed: ${startTaskError(settled) ?? 'the server gave no reason'}`);
	if (!settled.app_conversation_id) throw new StartFailedError(`start task ${settled.id} is READY but names no conversation`);
	return settled.app_conversation_id;
}

/** The stream ended early (the real server truncates it on some failures): poll the task instead. */
async function pollTask(server: Server, task: StartTask, show: (task: StartTask) => void): Promise<StartTask> {
	const deadline = Date.now() + 300_000;
	let current = task;
	while (Date.now() < deadline) {
		await sleep(1000);
		const [latest] = await server.app.getStartTasks([task.id]);
		if (!latest) throw new StartFailedError(`start task ${task.id} disappeared before it was READY`);
		if (latest.status !== current.status || latest.updated_at !== current.updated_at) show(latest);
		current = latest;
		if (current.status === 'READY' || current.status === 'ERROR') return current;
	}
	throw new StartFailedError(`start task ${task.id} was still ${current.status} after 5 minutes`);
}

/** The phase, plus what became known with it (the sandbox, the conversation). ERROR's detail is the failure line. */
function phaseText(task: StartTask, previous: StartTask | null): string {
	const details = [
		task.sandbox_id && task.sandbox_id !== previous?.sandbox_id ? `sandbox ${task.sandbox_id}` : null,
		task.status === 'READY' && task.app_conversation_id ? `conversation ${task.app_conversation_id}` : null,
	].filter(Boolean);
	return details.length > 0 ? `${task.status} (${details.join(', ')})` : task.status;
}

/** A conversation can take a moment to appear in look-ups after its start task is READY. */
async function findConversationSoon(server: Server, io: Io, id: string) {
	for (let attempt = 0; ; attempt++) {
		try {
			return await findConversation(server, io, id);
		} catch (error) {
			if (attempt >= 9 || !(error instanceof MissingError)) throw error;
			await sleep(1000);
		}
	}
}
