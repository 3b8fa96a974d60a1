import assert from 'node:assert/strict';
import {test} from 'node:test';
import {setStatus} from '../source/simulator/agent-runtime.js';
import type {SimConversation} from '../source/simulator/world-types.js';
import {startCli} from './helpers/built-cli.js';
import {liveOf, simulatedCli} from './helpers/cli-sim.js';
import {stopChild} from './helpers/run-process.js';
import {eventually} from './helpers/eventually.js';

/**
 * Why it failed, in the headless output (issue 21.3): `conversations --json` gives each row an
 * `error_cause` (null unless it is in error), its text form says the cause in the AGENT column, and
 * `watch --json` reports a change into error with its cause. Fields are added, none renamed.
 */

const fx = simulatedCli('causes', {seed: 7, conversations: 30});
const {home} = fx;
const live = (scenario: string) => liveOf(fx.sim, scenario);

function errOut(conversation: SimConversation, code: string, detail: string, classification: Record<string, unknown>): void {
	fx.sim.world.appendEvent(conversation, {kind: 'ConversationErrorEvent', source: 'environment', code, detail, classification} as never);
	setStatus(fx.sim.world, conversation, 'error');
}

type Row = {id: string; title: string; execution_status: string | null; error_cause: null | {event_kind: string; code: string; detail: string; classification: {kind: string; retryable: boolean; user_action: string} | null}};

test('conversations --json: every row gains error_cause; errored ones carry the classification', {timeout: 60_000}, async () => {
	errOut(live('coding'), 'LLMAuthenticationError', 'litellm.AuthenticationError: invalid x-api-key', {kind: 'auth', retryable: false, user_action: 'settings'});
	const run = await fx.cli(['conversations', '--json']);
	assert.equal(run.code, 0, run.stderr);
	const rows = JSON.parse(run.stdout) as Row[];
	assert.ok(rows.every((row) => 'error_cause' in row), 'the field on every row');
	const errored = rows.filter((row) => row.execution_status === 'error');
	assert.ok(errored.length >= 2, 'the seeded crash and the one made here');
	assert.ok(errored.every((row) => row.error_cause?.event_kind === 'ConversationErrorEvent' && row.error_cause.classification !== null), JSON.stringify(errored));
	const auth = errored.find((row) => row.error_cause?.code === 'LLMAuthenticationError')!;
	assert.deepEqual(auth.error_cause!.classification, {kind: 'auth', reported_kind: null, retryable: false, user_action: 'settings', error_id: null});
	// The queue's cause of the row (state/causes.ts) is the error's class, read here, not 'unread'.
	assert.equal((auth as Row & {cause: {key: string}}).cause.key, 'error:auth');
	assert.ok(rows.filter((row) => row.execution_status !== 'error').every((row) => row.error_cause === null));
	// The existing fields are all still there, unrenamed.
	for (const field of ['id', 'title', 'sandbox_status', 'execution_status', 'selected_repository', 'created_at', 'updated_at']) assert.ok(field in auth, field);

	const text = await fx.cli(['conversations']);
	assert.match(text.stdout, /✗ error · auth: check the LLM key/);
});

test('conversations --causes N reads the causes of the N most recently updated errored conversations only', {timeout: 60_000}, async () => {
	errOut(live('coding'), 'LLMRateLimitError', 'litellm.RateLimitError: slow down', {kind: 'rate_limit', retryable: true, user_action: 'retry'});
	const run = await fx.cli(['conversations', '--json', '--causes', '1']);
	assert.equal(run.code, 0, run.stderr);
	const rows = JSON.parse(run.stdout) as Array<Row & {updated_at: string; cause: {key: string} | null}>;
	const errored = rows.filter((row) => row.execution_status === 'error');
	assert.ok(errored.length >= 2, JSON.stringify(errored));
	const read = errored.filter((row) => row.error_cause !== null);
	assert.equal(read.length, 1, 'one cause read');
	const newest = [...errored].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at))[0]!;
	assert.equal(read[0]!.id, newest.id, 'the most recently updated one');
	// The others are said to be unread, not to have no cause.
	assert.ok(errored.filter((row) => row.id !== newest.id).every((row) => row.cause?.key === 'error:unread'), JSON.stringify(errored.map((row) => row.cause)));
	assert.match(run.stderr, new RegExp(`the cause of ${errored.length - 1} older errored conversations? (was|were) not read`));

	const wrong = await fx.cli(['conversations', '--causes', 'some']);
	assert.equal(wrong.code, 2, wrong.stderr);
	assert.match(wrong.stderr, /--causes takes a count or all/);
});

test('watch --json: a change into error carries its cause', {timeout: 90_000}, async (t) => {
	const cli = startCli(['watch', '--json', '--base-url', fx.sim.baseUrl], {home, env: {OPENHANDS_API_KEY: fx.sim.apiKey}});
	t.after(() => stopChild(cli.child));
	const until = (predicate: () => boolean, what: string) => eventually(predicate, what, {timeoutMs: 40_000, pollMs: 100, detail: cli.detail});
	await until(() => cli.stderr.includes('watching'), 'the baseline');
	errOut(live('condensing'), 'MaxBudgetReached', 'Current total cost ($10.04) exceeds the maximum budget per task ($10.00).', {kind: 'quota', retryable: false, user_action: 'settings'});
	type Line = {which: string; to: string; reason: string | null; cause: unknown; error_cause?: Row['error_cause']};
	const lines = () => cli.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
	await until(() => lines().some((line) => line.to === 'error'), 'the transition into error');
	const line = lines().find((entry) => entry.to === 'error')!;
	assert.equal(line.which, 'agent');
	assert.equal(line.reason, 'error');
	assert.equal(line.error_cause?.code, 'MaxBudgetReached');
	assert.equal(line.error_cause?.classification?.kind, 'quota');
	// The queue's cause of the row (state/causes.ts) is the error's class too, not 'unread'.
	assert.match(JSON.stringify(line.cause), /quota/);
	cli.child.kill('SIGINT');
	// Ended by ctrl-c: 130, as every command (commands/signals.ts).
	assert.equal(await cli.exited, 130, cli.stderr);
});
