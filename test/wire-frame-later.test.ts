import {test} from 'node:test';
import assert from 'node:assert/strict';
import {realFrames} from '../bench/real-events.js';
import {simulatorFrames} from '../bench/frames.js';
import {heldBytes, mayHoldEncryptedContent, parseEventLater, parseFrameLater, settleEvent, type PendingEvent} from '../source/wire/schemas/events.js';
import {scanTopLevelStrings} from '../source/wire/schemas/json-scan.js';
import {summaryOf} from '../source/view/timeline/summary-cache.js';

/**
 * What a followed stream holds per event, since a real conversation's frames are kilobytes: the
 * frame's text (not a parsed tree three times its size, also for frames with a `\u001b` of
 * coloured output), read by a scan of its top-level keys (not a JSON.parse of the whole frame),
 * and never the validated event kept just because its row was shown.
 */

test('a frame read by its scanned envelope validates to exactly what a full parse gives', async () => {
	const frames = [...realFrames(1500, 3), ...(await simulatorFrames(1500))];
	let fast = 0;
	for (const text of frames) {
		const quick = parseFrameLater(text);
		if (!quick) continue;
		fast++;
		assert.deepEqual(settleEvent(quick), settleEvent(parseEventLater(JSON.parse(text), {text, mayHoldEncryptedContent: mayHoldEncryptedContent(text)})));
	}
	assert.ok(fast > frames.length * 0.8, `${fast} of ${frames.length} frames took the scan`);
});

test('the scan: top-level string fields only, the last occurrence wins, nested ones are skipped', () => {
	const keys = ['kind', 'id', 'source'];
	const scanned = scanTopLevelStrings(' {"kind": "MessageEvent", "x": {"kind": "no", "s": "}\\"{"}, "id": "a\\"b", "list": [1, "]", {"id": "no"}], "kind": "ActionEvent"} ', keys);
	assert.deepEqual(Object.fromEntries(scanned!), {kind: 'ActionEvent', id: 'a"b'});
	// Keys are compared in place: a longer or shorter key that starts the same is another key, an
	// escaped one is decoded first, and a string ending in escaped backslashes ends at its quote.
	assert.deepEqual(Object.fromEntries(scanTopLevelStrings('{"\\u006bind": "MessageEvent", "source": "a\\\\", "id": "b", "kinds": "x", "idx": "y", "i": "z"}', keys)!), {kind: 'MessageEvent', source: 'a\\', id: 'b'});
	for (const text of ['[1]', '"s"', 'null', '{"a":', '{"a" 1}', '{"kind":"MessageEvent","id":"x"} trailing']) assert.equal(scanTopLevelStrings(text, keys), null, text);
	// Frames the fast path leaves to a full parse.
	assert.equal(parseFrameLater('{"kind":1,"id":"x"}'), null, 'a kind that is not a string');
	assert.equal(parseFrameLater('{"kind":"SomethingNew","id":"x"}'), null, 'an unknown kind (shown raw by the full parse)');
	assert.equal(parseFrameLater('{"kind":"MessageEvent","timestamp":"t"}'), null, 'no id (the full parse makes one up)');
	assert.equal(parseFrameLater('{"kind":"ActionEvent","id":"x","responses_reasoning_item":{"encrypted_content":"c2VjcmV0"}}'), null, 'it may hold encrypted_content');
	// A body broken past the envelope: held, then shown as invalid when validated, never a throw.
	const broken = parseFrameLater('{"kind":"MessageEvent","id":"x","source":"user","llm_message":tru}');
	assert.ok(broken);
	const settled = settleEvent(broken);
	assert.equal(settled.kind, 'UnknownEvent');
	assert.match((settled as {problem: string}).problem, /invalid MessageEvent: its JSON is broken/);
});

test('a frame with colour escapes or encrypted content is held as its scrubbed text, not a parsed tree', () => {
	const text = JSON.stringify({
		kind: 'ActionEvent',
		id: 'a1',
		timestamp: '2026-11-22T10:00:00.000001',
		source: 'agent',
		thought: [{type: 'text', text: '\u001B[32mok\u001B[0m'}],
		responses_reasoning_item: {id: 'rs', summary: [], encrypted_content: 'U0VDUkVUIFJFQVNPTklORw==', status: 'completed'},
		tool_name: 'think',
		tool_call_id: 't1',
		tool_call: {id: 't1', name: 'think', arguments: '{}', origin: 'completion'},
		llm_response_id: 'r1',
		action: {kind: 'ThinkAction', thought: 'x'},
	});
	assert.equal(parseFrameLater(text), null);
	const held = parseEventLater(JSON.parse(text), {text, mayHoldEncryptedContent: mayHoldEncryptedContent(text)}) as PendingEvent;
	assert.equal(typeof held.payload, 'string', 'text, not objects');
	assert.doesNotMatch(held.payload as string, /U0VDUkVU/, 'the encrypted content is not in what is held');
	assert.ok(heldBytes(held) < text.length + 300);
	assert.equal(settleEvent(held).kind, 'ActionEvent');
});

test('showing a row does not keep its event validated: the summary is remembered, the event stays text', () => {
	const [text] = [...realFrames(3, 5)].filter((frame) => frame.includes('"ObservationEvent"'));
	const event = parseFrameLater(text ?? [...realFrames(3, 5)][2]!)!;
	const before = heldBytes(event);
	const summary = summaryOf(event);
	assert.ok(summary.text.length > 0);
	assert.equal(event.settled, undefined, 'not settled by its summary');
	assert.equal(typeof event.payload, 'string');
	assert.equal(heldBytes(event), before);
	assert.equal(summaryOf(event), summary, 'summarised once');
	// Settled (details opened), it counts as the objects it now is.
	settleEvent(event);
	assert.ok(heldBytes(event) > before * 2);
});
