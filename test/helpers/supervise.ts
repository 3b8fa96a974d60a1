import type {TestContext} from 'node:test';
import {StreamSupervisor, type StreamProblem, type StreamStatus, type StreamSupervisorOptions} from '../../source/state/stream-supervisor.js';

export type Supervised = {
	supervisor: StreamSupervisor;
	statuses: StreamStatus[];
	problems: StreamProblem[];
	/** Every id onEvents announced, in order (a duplicate would show here). */
	announced: string[];
	/** Times the stream went from live to reconnecting. */
	reconnects(): number;
};

/** A started StreamSupervisor with quick timings for tests, recording what it reports; closed after the test. */
export function supervise(t: TestContext, client: StreamSupervisorOptions['client'], options: Partial<StreamSupervisorOptions> = {}): Supervised {
	const statuses: StreamStatus[] = [];
	const problems: StreamProblem[] = [];
	const announced: string[] = [];
	const supervisor = new StreamSupervisor({
		client,
		backoff: {baseMs: 20, capMs: 400},
		heartbeatIntervalMs: 200,
		heartbeatGraceMs: 200,
		firstFrameTimeoutMs: 400,
		handshakeTimeoutMs: 300,
		onStatus: (status) => statuses.push(status),
		onProblem: (problem) => problems.push(problem),
		onEvents: (events) => {
			for (const event of events) announced.push(event.id);
		},
		...options,
	});
	t.after(() => supervisor.close());
	supervisor.start();
	return {
		supervisor,
		statuses,
		problems,
		announced,
		reconnects: () => statuses.filter((status, index) => status.state === 'reconnecting' && statuses[index - 1]?.state === 'live').length,
	};
}
