import {AgentClient} from '../wire/agent-client.js';
import type {Transport} from '../wire/transport.js';
import {StreamSupervisor} from './stream-supervisor.js';
import type {OpenTimelineStream} from './timeline-session.js';

/**
 * The dashboard's default timeline stream: a StreamSupervisor (REST backfill, then the live
 * socket with resync) over the conversation's own agent server. Throws, like
 * `AgentClient.fromConversation`, when the sandbox exposes no agent server (it is not running);
 * the session shows that as a failed stream with the reason.
 */
export function agentStreams(transport?: Transport): OpenTimelineStream {
	return (conversation, handlers, {appBaseUrl, log}) => {
		// One GET retry inside a call: the supervisor has its own backoff around whole cycles.
		const client = AgentClient.fromConversation(conversation, appBaseUrl, {maxRetries: 1, ...(transport ? {transport} : {})});
		const supervisor = new StreamSupervisor({
			client,
			log,
			// The timeline shows a window of the stream: payloads are validated as rows need them.
			validate: 'on-read',
			onEvents: (events) => handlers.events(events),
			onStatus: (status) =>
				handlers.status({
					health: {
						state: status.state,
						attempt: status.attempt,
						...(status.nextRetryInMs === undefined ? {} : {nextRetryInMs: status.nextRetryInMs}),
						...(status.lastError === undefined ? {} : {lastError: status.lastError}),
						...(status.overRest ? {overRest: true} : {}),
						...(status.restReadAt === undefined ? {} : {restReadAt: status.restReadAt}),
					},
					executionStatus: status.executionStatus ?? null,
					gap: status.gap,
				}),
		});
		supervisor.start();
		return supervisor;
	};
}

/** Over the process's transport (tests and callers that hold no server of their own). */
export const openAgentStream: OpenTimelineStream = agentStreams();
