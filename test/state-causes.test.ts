import assert from 'node:assert/strict';
import {test} from 'node:test';
import {causeFilterWord, causeGroups, causeJson, causeMatches, causeOf} from '../source/state/causes.js';
import {parseConversationFilter, rowMatches} from '../source/state/conversation-query.js';
import type {ConversationRow} from '../source/state/dashboard-types.js';
import {planResumes} from '../source/state/resume-plan.js';
import {planRun} from '../source/state/remedy-plan.js';
import {conversationCause} from '../source/commands/conversation-cause.js';
import type {ErrorCause, FailureKind} from '../source/wire/error-classification.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {conversationRow, fixtureNow, hexId, sandboxRow} from './helpers/dashboard-fixture.js';

/**
 * The queue by cause: each conversation that needs you has one cause (its own most urgent
 * reason, an error refined by its classification, a sandbox down by its status and detail);
 * groups count them and know the oldest; a group has a remedy only where one is safe.
 */

const minute = 60_000;

function errorCause(kind: FailureKind | null, retryable: boolean | null = null, userAction: 'none' | 'retry' | 'settings' = 'none'): ErrorCause {
	return {
		eventKind: 'ConversationErrorEvent',
		eventId: 'e1',
		timestamp: '2026-11-20T12:00:00',
		code: 'X',
		toolName: null,
		detail: 'failed',
		classification: kind === null ? null : {kind, reportedKind: null, retryable, userAction, errorId: null},
	};
}

function errored(n: number, title: string, cause: ErrorCause | null | undefined, minutesAgo = 5): ConversationRow {
	const row = conversationRow({id: hexId(n), title, execution: 'error', updatedMinutesAgo: minutesAgo});
	return cause === undefined ? row : ({...row, errorCause: cause} as ConversationRow);
}

function fleet(): Map<string, ConversationRow> {
	const rows = [
		conversationRow({id: hexId(1), title: 'Healthy', execution: 'running'}),
		conversationRow({id: hexId(2), title: 'Wants approval', execution: 'waiting_for_confirmation', updatedMinutesAgo: 14}),
		errored(3, 'Rate limited A', errorCause('rate_limit', true, 'retry'), 9),
		errored(4, 'Rate limited B', errorCause('rate_limit', true, 'retry'), 2),
		errored(5, 'Budget spent', errorCause('quota', false, 'settings'), 60),
		errored(6, 'Bad key', errorCause('auth', false, 'settings'), 30),
		errored(7, 'Not read yet', undefined, 1),
		conversationRow({id: hexId(8), title: 'Stuck', execution: 'stuck', updatedMinutesAgo: 3}),
		// Paused while its agent ran: its work is cut off.
		conversationRow({id: hexId(9), title: 'Cut off', execution: null, sandbox: 'PAUSED', lastKnown: 'running', updatedMinutesAgo: 20}),
		// Paused after it finished: needs nobody.
		conversationRow({id: hexId(10), title: 'Done and paused', execution: null, sandbox: 'PAUSED', lastKnown: 'finished', updatedMinutesAgo: 200}),
	];
	return new Map(rows.map((row) => [row.key, row]));
}

test('each conversation has one cause: approval, errors by classification kind, stuck, paused mid-run; healthy and finished ones none', () => {
	const rows = fleet();
	const keyOf = (n: number) => causeOf(rows.get(hexId(n))!)?.key ?? null;
	assert.deepEqual(
		[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(keyOf),
		[null, 'approval', 'error:rate_limit', 'error:rate_limit', 'error:quota', 'error:auth', 'error:unread', 'stuck', 'paused', null],
	);
	const rate = causeOf(rows.get(hexId(3))!)!;
	assert.equal(rate.retryable, true);
	assert.equal(rate.errorEvent, 'ConversationErrorEvent');
	assert.equal(causeOf(errored(11, 'no classification', errorCause(null)))!.key, 'error:unclassified');
});

test('a sandbox down is grouped by its status and the runtime\'s reason; a parent raised by a sub-agent is not counted twice', () => {
	const down = conversationRow({id: hexId(12), title: 'Image', execution: 'running', sandbox: 'ERROR'});
	const withDetail = {...down, attention: [{kind: 'sandbox_error' as const, status: 'ERROR', since: fixtureNow - minute, detail: 'ImagePullBackOff'}]};
	assert.deepEqual(causeOf(withDetail), {key: 'sandbox:ERROR:ImagePullBackOff', kind: 'sandbox_down', sandboxStatus: 'ERROR', detail: 'ImagePullBackOff', since: fixtureNow - minute});
	const child = conversationRow({id: hexId(13), title: 'Child', execution: 'waiting_for_confirmation'});
	const parent = {
		...conversationRow({id: hexId(14), title: 'Parent', execution: 'running'}),
		attention: [{kind: 'sub_agent' as const, child: {key: child.key, title: 'Child'}, reason: child.attention[0]! as never, count: 1}],
	};
	assert.equal(causeOf(parent), null, 'the child carries the cause');
	const groups = causeGroups({conversations: new Map([child, parent].map((row) => [row.key, row]))});
	assert.deepEqual(groups.map((group) => [group.key, group.keys.length]), [['approval', 1]]);
});

test('groups: counts, the oldest age, the longest-waiting first, remedies only where safe, in fixing order', () => {
	const groups = causeGroups({conversations: fleet()});
	assert.deepEqual(
		groups.map((group) => [group.key, group.keys.length, group.remedy]),
		[
			['approval', 1, null],
			['error:rate_limit', 2, 'run'],
			['error:quota', 1, null],
			['error:auth', 1, null],
			['error:unread', 1, null],
			['stuck', 1, null],
			['paused', 1, 'resume'],
		],
	);
	const rate = groups[1]!;
	assert.deepEqual(rate.keys, [hexId(3), hexId(4)], 'the one rate-limited 9 minutes ago first');
	assert.equal(rate.oldestSince, rows(3).attention[0]!.kind === 'error' ? (rows(3).attention[0] as {since: number}).since : null);
	assert.equal(causeGroups({conversations: fleet()}).length, 7);
	const same = fleet();
	assert.equal(causeGroups({conversations: same}), causeGroups({conversations: same}), 'memoised on the Map');
});

test('a group whose errors differ in retryability offers run for the retryable ones only; one that needs the settings offers none', () => {
	// The SDK classifies a malformed tool call agent_action and retryable, a run that hit its
	// iteration limit agent_action and not retryable: one group, two answers.
	const mixed = new Map([errored(31, 'Hit its iteration limit', errorCause('agent_action', false), 30), errored(32, 'Malformed tool call', errorCause('agent_action', true, 'retry'), 5)].map((row) => [row.key, row]));
	const [group] = causeGroups({conversations: mixed});
	assert.deepEqual([group?.key, group?.keys, group?.remedy], ['error:agent_action', [hexId(31), hexId(32)], 'run'], 'the retryable one is offered, though the oldest is not retryable');
	const plan = planRun({conversations: mixed, sandboxes: new Map(), runningSandboxCap: null, sandboxesListed: true}, group!.keys);
	assert.deepEqual(plan.conversationKeys, [hexId(32)], 'only the retryable one is run');
	assert.deepEqual(plan.skipped, [{key: hexId(31), why: 'its error is not retryable'}]);
	// A spent budget stays a spent budget, whatever a server says of retrying: nothing is offered.
	const quota = new Map([errored(33, 'Budget spent', errorCause('quota', true, 'settings'))].map((row) => [row.key, row]));
	assert.equal(causeGroups({conversations: quota})[0]?.remedy, null);
	assert.deepEqual(planRun({conversations: quota, sandboxes: new Map(), runningSandboxCap: null, sandboxesListed: true}, [hexId(33)]).conversationKeys, []);
});

function rows(n: number): ConversationRow {
	return fleet().get(hexId(n))!;
}

test('the list filter cause: matches what the queue counted', () => {
	const all = [...fleet().values()];
	const match = (text: string) => all.filter((row) => rowMatches(row, parseConversationFilter(text))).map((row) => row.conversation.title);
	assert.deepEqual(match('cause:error:rate_limit'), ['Rate limited A', 'Rate limited B']);
	assert.deepEqual(match('cause:error'), ['Rate limited A', 'Rate limited B', 'Budget spent', 'Bad key', 'Not read yet']);
	assert.deepEqual(match('cause:retryable'), ['Rate limited A', 'Rate limited B']);
	assert.deepEqual(match('cause:paused'), ['Cut off']);
	assert.deepEqual(match('cause:none'), ['Healthy', 'Done and paused']);
	assert.equal(causeMatches(null, 'error'), false);
	assert.equal(causeFilterWord({key: 'sandbox:STARTING:insufficient kvm', kind: 'sandbox_down', cause: {key: 'x', kind: 'sandbox_down', sandboxStatus: 'STARTING', since: null}}), 'sandbox:starting', 'a detail with spaces is not part of the word');
});

test('the cause as JSON: stable snake_case fields, ISO since', () => {
	assert.deepEqual(causeJson(causeOf(rows(3))), {
		key: 'error:rate_limit',
		kind: 'error',
		error_kind: 'rate_limit',
		retryable: true,
		error_event: 'ConversationErrorEvent',
		user_action: 'retry',
		since: new Date((rows(3).attention[0] as {since: number}).since).toISOString(),
	});
	assert.equal(causeJson(null), null);
	// Headless, from one listing: what it can tell.
	const waiting = appConversationSchema.parse({id: hexId(20), execution_status: 'waiting_for_confirmation', sandbox_status: 'RUNNING', updated_at: new Date(fixtureNow - minute).toISOString()});
	assert.equal(conversationCause(waiting, fixtureNow)?.key, 'approval');
	const running = appConversationSchema.parse({id: hexId(21), execution_status: 'running', sandbox_status: 'RUNNING', updated_at: new Date(fixtureNow).toISOString()});
	assert.equal(conversationCause(running, fixtureNow), null);
	const failed = appConversationSchema.parse({id: hexId(22), execution_status: 'error', sandbox_status: 'RUNNING', updated_at: new Date(fixtureNow).toISOString()});
	assert.equal(conversationCause(failed, fixtureNow, errorCause('auth', false, 'settings'))?.key, 'error:auth');
});

test('resuming several sandboxes at the cap: which ones the service pauses, in order, and when a later resume undoes an earlier one', () => {
	const sandbox = (id: string, status: string, createdMinutesAgo: number) => sandboxRow({id, status, createdMinutesAgo, users: [`c-${id}`]});
	const rows = new Map(
		[sandbox('old-run', 'RUNNING', 300), sandbox('mid-run', 'RUNNING', 200), sandbox('new-run', 'RUNNING', 10), sandbox('p1', 'PAUSED', 400), sandbox('p2', 'PAUSED', 100)].map((row) => [row.key, row]),
	);
	// Cap 4: 3 run; the first resume leaves room, the second pauses the oldest running one.
	let plan = planResumes(rows, ['p1', 'p2'], 4);
	assert.deepEqual(plan.steps, [
		{sandboxKey: 'p1', pauses: []},
		{sandboxKey: 'p2', pauses: ['p1']},
	]);
	assert.deepEqual(plan.undone, ['p1'], 'p1 is the oldest: the second resume pauses it again');
	// Cap 5: both fit.
	plan = planResumes(rows, ['p1', 'p2'], 5);
	assert.deepEqual(plan.paused, []);
	// Cap 3: each resume pauses the oldest running others, oldest first.
	plan = planResumes(rows, ['p2'], 3);
	assert.deepEqual(plan.paused, ['old-run']);
	assert.equal(plan.certain, true);
	// Unknown cap: the oldest may be paused, each time.
	plan = planResumes(rows, ['p2'], null);
	assert.deepEqual(plan.paused, ['old-run']);
	assert.equal(plan.certain, false);
});

test('in the all-servers view a resume plans pauses on its own server only: another server\'s older sandbox is never named', () => {
	const on = (server: string, id: string, status: string, createdMinutesAgo: number) => {
		const row = sandboxRow({id: `${id}@${server}`, status, createdMinutesAgo, users: [`c-${id}@${server}`]});
		return {...row, server: {name: server, stale: false, clockOffsetMs: 0}};
	};
	// work's running sandbox is the oldest of all; lab's paused one is resumed.
	const rows = new Map([on('work', 'w-old', 'RUNNING', 900), on('lab', 'l-run', 'RUNNING', 50), on('lab', 'l-paused', 'PAUSED', 400)].map((row) => [row.key, row]));
	const plan = planResumes(rows, ['l-paused@lab'], null);
	assert.deepEqual(plan.paused, ['l-run@lab'], 'the resume on lab may pause lab\'s oldest running sandbox, never work\'s');
	// Nothing else runs on work: resuming there pauses nothing, however many run on lab.
	const alone = new Map([on('work', 'w-paused', 'PAUSED', 900), on('lab', 'l-a', 'RUNNING', 800), on('lab', 'l-b', 'RUNNING', 700)].map((row) => [row.key, row]));
	assert.deepEqual(planResumes(alone, ['w-paused@work'], null).paused, []);
});
