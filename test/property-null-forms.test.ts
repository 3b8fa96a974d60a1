import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {eventDetails} from '../source/format/event-details.js';
import {eventSummary} from '../source/format/event-summary.js';
import {computeAttention} from '../source/state/attention.js';
import {storedForm} from '../source/simulator/stored-form.js';
import {World} from '../source/simulator/world.js';
import {detailContext} from '../source/view/details/detail-context.js';
import {appConversationSchema} from '../source/wire/schemas/app.js';
import {mayHoldEncryptedContent, parseEvent, parseEventLater, settleEvent, type LoggedEvent, type WireEvent} from '../source/wire/schemas/events.js';

/**
 * Issue 21.1: the agent server sends events without their null fields, the app server's stored
 * copy keeps them. Property: for every event the simulator emits (every scenario, the seeded
 * history, live steps, hostile text on), either serialisation, and any mix of the two in one
 * log (a stored history continued by a live stream), the client shows the same row, the same
 * details and the same attention.
 */

type Json = Record<string, unknown>;

/** Every conversation's events, agent-server form, after some live steps (the long-runner's tools, goals). */
function corpus(seed: number): SimEventLists {
	const world = new World({seed, conversations: 40, maxRunningSandboxes: 12, startTaskPhaseMs: 0, sandboxTransitionMs: 0});
	const lists: Json[][] = [];
	for (const conversation of world.conversationList()) world.events(conversation);
	world.step(150);
	world.hostile = true;
	world.step(6);
	for (const conversation of world.conversationList()) lists.push(world.events(conversation).map((event) => JSON.parse(JSON.stringify(event)) as Json));
	return lists;
}

type SimEventLists = Json[][];

const hasNull = (value: unknown): boolean =>
	value === null || (typeof value === 'object' && value !== null && Object.values(value as Json).some((child) => hasNull(child)));

/** What a person sees of one event in a log: its row, its details (with what it answers or what answered it). */
function view(events: readonly WireEvent[], index: number): string {
	const event = events[index]!;
	const summary = eventSummary(event);
	const doc = eventDetails(event, 100, detailContext(events, event, true));
	return JSON.stringify([summary, doc.lines(0, doc.lineCount)]);
}

const conversation = appConversationSchema.parse({id: 'f'.repeat(32), title: 't', sandbox_status: 'RUNNING', execution_status: 'running', updated_at: '2026-11-22T11:59:00Z'});
const attention = (events: readonly LoggedEvent[]) => JSON.stringify(computeAttention({conversation, now: Date.parse('2026-11-22T12:00:00Z'), events}));

/** The two ways the client reads an event: validated at once (REST pages), or on first use (socket frames, kept as text). */
function read(json: Json, later: boolean): WireEvent {
	if (!later) return parseEvent(JSON.parse(JSON.stringify(json)));
	const text = JSON.stringify(json);
	return settleEvent(parseEventLater(JSON.parse(text), {mayHoldEncryptedContent: mayHoldEncryptedContent(text), text}));
}

const lists = corpus(1);
const all = lists.flat();

test('the simulator emits both forms: the agent server never a null, the stored copy every optional field the SDK declares', () => {
	assert.ok(all.length > 800, `${all.length} events`);
	assert.ok(!all.some((event) => hasNull(event)), 'an agent-server event holds a null');
	const stored = all.map((event) => storedForm(event as never) as Json);
	assert.ok(stored.every((event) => event.parent_id === null));
	const invalid = stored.filter((event) => event.kind === 'ActionEvent' && event.action === null);
	assert.ok(invalid.length >= 5, `${invalid.length} invalid calls`);
	const refused = stored.find((event) => {
		const observation = event.observation as Json | undefined;
		return observation?.kind === 'TerminalObservation' && observation.is_error === true;
	});
	assert.ok(refused, 'a refused terminal command');
	assert.equal((refused.observation as Json).exit_code, null);
	assert.equal(((refused.observation as Json).metadata as Json).exit_code, -1);
	// The shapes the issue lists all occur.
	const kinds = new Set(all.flatMap((event) => [String((event.action as Json | undefined)?.kind ?? ''), String((event.observation as Json | undefined)?.kind ?? ''), event.kind === 'ConversationStateUpdateEvent' ? `state:${String(event.key)}` : String(event.kind)]));
	for (const kind of ['ApplyPatchAction', 'ApplyPatchObservation', 'TaskAction', 'DelegateAction', 'InvokeSkillAction', 'SwitchLLMAction', 'VisionInspectAction', 'ClientAction_notify_channel', 'ConsultTomAction', 'state:goal', 'AgentErrorEvent', 'ConversationErrorEvent']) {
		assert.ok(kinds.has(kind), `the simulator never emits ${kind}`);
	}
});

test('every event: both forms, read either way, give the same row and details', () => {
	for (const list of lists) {
		const agent = list.map((event) => read(event, false));
		const stored = list.map((event) => read(storedForm(event as never) as Json, true));
		for (let index = 0; index < list.length; index++) {
			assert.equal(view(stored, index), view(agent, index), `event ${String(list[index]!.kind)} ${String(list[index]!.id)}`);
		}
		assert.equal(attention(stored), attention(agent));
	}
});

test('property: any mix of the two forms in one log gives the same rows, details and attention', () => {
	fc.assert(
		fc.property(
			fc.integer({min: 0, max: lists.length - 1}),
			fc.integer({min: 1, max: 400}),
			fc.array(fc.tuple(fc.boolean(), fc.boolean()), {minLength: 400, maxLength: 400}),
			(which, length, mask) => {
				const list = lists[which]!.slice(0, length);
				const agent = list.map((event) => read(event, false));
				const mixed = list.map((event, index) => {
					const [useStored, later] = mask[index]!;
					return read(useStored ? (storedForm(event as never) as Json) : event, later);
				});
				for (let index = 0; index < list.length; index++) assert.equal(view(mixed, index), view(agent, index));
				assert.equal(attention(mixed), attention(agent));
			},
		),
		{numRuns: 60, seed: 21},
	);
});

test('the stuck agent loops on one invalid call: both forms flag it repeating, four times', () => {
	const stuck = lists.find((list) => list.some((event) => event.kind === 'ConversationStateUpdateEvent' && event.value === 'stuck') && list.some((event) => event.kind === 'ActionEvent' && event.action === undefined));
	assert.ok(stuck, 'a stuck conversation with invalid calls');
	for (const form of [stuck, stuck.map((event) => storedForm(event as never) as Json)]) {
		const reasons = JSON.parse(attention(form.map((event) => read(event, false)))) as Array<{kind: string; count?: number}>;
		const repeating = reasons.find((reason) => reason.kind === 'repeating');
		assert.equal(repeating?.count, 4, JSON.stringify(reasons));
	}
});
