import assert from 'node:assert/strict';
import {test} from 'node:test';
import {watching} from './helpers/cli-sim.js';
import {setStatus} from '../source/simulator/agent-runtime.js';
import {eventually} from './helpers/eventually.js';

/**
 * `watch --json` says why: a conversation that goes into error is printed with the cause the
 * queue groups it by, the SDK's classification of the error that ended its run included (the
 * line waits for the store to read that event).
 */

test('watch --json: an agent that hits a rate limit is printed with cause error:rate_limit, retryable', {timeout: 90_000}, async (t) => {
	const {sim, cli} = await watching(t, 'watch-cause', {seed: 5, conversations: 20, startTaskPhaseMs: 20});
	const {detail} = cli;

	// A running agent hits the provider's rate limit: the error event as the SDK sends it, then the status.
	const conversation = sim.world.liveConversations().find((entry) => entry.executionStatus === 'running')!;
	const id = conversation.id;
	sim.world.appendEvent(conversation, {
		kind: 'ConversationErrorEvent',
		source: 'environment',
		code: 'LLMRateLimitError',
		detail: 'litellm.RateLimitError: 429 after 5 retries',
		classification: {kind: 'rate_limit', retryable: true, user_action: 'retry'},
	});
	setStatus(sim.world, conversation, 'error');

	type Line = {id: string; which: string; to: string; cause: {key: string; kind: string; error_kind?: string; retryable?: boolean; error_event?: string} | null};
	const lines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	const errorLine = (await eventually(() => lines().find((line) => line.id === id && line.to === 'error'), 'its error line', {timeoutMs: 30_000, pollMs: 100, detail}))!;
	assert.deepEqual(
		{key: errorLine.cause?.key, kind: errorLine.cause?.kind, error_kind: errorLine.cause?.error_kind, retryable: errorLine.cause?.retryable, error_event: errorLine.cause?.error_event},
		{key: 'error:rate_limit', kind: 'error', error_kind: 'rate_limit', retryable: true, error_event: 'ConversationErrorEvent'},
	);
	cli.child.kill('SIGINT');
	// Ended by ctrl-c: 130, as every command (commands/signals.ts).
	assert.equal(await cli.exited, 130, cli.stderr);
});
