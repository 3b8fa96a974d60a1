import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readPatch, patchRow} from '../source/format/apply-patch.js';
import {eventDetails} from '../source/format/event-details.js';
import {eventSummary} from '../source/format/event-summary.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {wire} from './helpers/event-fixtures.js';

/**
 * Every tool a 2026 agent uses (issue 21.4), in the SDK's own field names: apply_patch
 * (openhands-tools/openhands/tools/apply_patch/definition.py), task and delegate (tools/task,
 * tools/delegate), invoke_skill, switch_llm, vision_inspect (openhands-sdk/openhands/sdk/tool/
 * builtins/), client tools `ClientAction_<name>` (sdk/tool/client_tool.py), and kinds no client
 * knows yet (tools/tom_consult's ConsultTomAction stands in for "whatever comes next").
 */

const call = (toolName: string, action: Record<string, unknown>) =>
	wire({kind: 'ActionEvent', source: 'agent', thought: [], tool_name: toolName, tool_call_id: `call_${toolName}`, action, tool_call: {id: `call_${toolName}`, name: toolName, arguments: JSON.stringify(action), origin: 'responses'}, llm_response_id: 'resp_1', security_risk: 'LOW'});

const answer = (action: WireEvent, observation: Record<string, unknown>) =>
	wire({kind: 'ObservationEvent', source: 'environment', tool_name: (action as {tool_name: string}).tool_name, tool_call_id: 'c', action_id: action.id, observation});

const detailLines = (event: WireEvent, outcome?: WireEvent) => {
	const doc = eventDetails(event, 100, outcome ? {outcome: outcome as never} : {});
	return doc.lines(0, doc.lineCount).map((line) => line.text);
};

const has = (lines: readonly string[], pattern: RegExp) => assert.ok(lines.some((line) => pattern.test(line)), `no line matches ${pattern}:\n${lines.join('\n')}`);

const patch = `*** Begin Patch
*** Update File: src/cart/total.ts
@@ export function total(items: Item[]): number {
-  return items.reduce((sum, item) => sum + item.price, 0);
+  const cents = items.reduce((sum, item) => sum + Math.round(item.price * 100), 0);
+  return cents / 100;
 }
*** Add File: src/cart/money.ts
+export const toCents = (value: number) => Math.round(value * 100);
+export const fromCents = (cents: number) => cents / 100;
*** Delete File: src/cart/legacy-total.js
*** Update File: src/cart/index.ts
*** Move to: src/cart/main.ts
@@
-export * from './legacy-total.js';
+export * from './money.js';
*** End Patch`;

test('apply_patch: the row names the files it touches and the lines added and removed; details show the patch', () => {
	const summary = readPatch(patch);
	assert.deepEqual(
		summary.files.map((file) => [file.path, file.operation, file.moveTo, file.added, file.removed]),
		[
			['src/cart/total.ts', 'update', null, 2, 1],
			['src/cart/money.ts', 'add', null, 2, 0],
			['src/cart/legacy-total.js', 'delete', null, 0, 0],
			['src/cart/index.ts', 'update', 'src/cart/main.ts', 1, 1],
		],
	);
	const action = call('apply_patch', {kind: 'ApplyPatchAction', patch});
	assert.equal(eventSummary(action).text, 'patch 4 files +5 -2: src/cart/total.ts, src/cart/money.ts (new), src/cart/legacy-total.js (deleted), src/cart/index.ts → src/cart/main.ts');
	const one = call('apply_patch', {kind: 'ApplyPatchAction', patch: '*** Begin Patch\r\n*** Update File: a.py\r\n@@\r\n-x = 1\r\n+x = 2\r\n*** End Patch\r\n'});
	assert.equal(eventSummary(one).text, 'patch a.py +1 -1');
	assert.equal(eventSummary(call('apply_patch', {kind: 'ApplyPatchAction', patch: 'oops'})).text, 'patch (names no file)');
	const observation = answer(action, {kind: 'ApplyPatchObservation', content: [{type: 'text', text: 'Done!'}], is_error: false, message: 'Done!', fuzz: 0, commit: {changes: {'src/cart/total.ts': {type: 'update'}, 'src/cart/money.ts': {type: 'add', new_content: 'x'}}}});
	assert.equal(eventSummary(observation).text, 'patched · Done!');
	const lines = detailLines(action, observation);
	has(lines, /^tool +apply_patch \(ApplyPatchAction\)$/);
	has(lines, /^changes +4 files \+5 -2$/);
	has(lines, /^ +add +src\/cart\/money\.ts \(new, \+2\)$/);
	has(lines, /^ +delete +src\/cart\/legacy-total\.js \(deleted\)$/);
	has(lines, /^patch \(17 lines\)$/);
	has(lines, /^ +\+  return cents \/ 100;$/);
	assert.ok(!lines.some((line) => line.includes('\\n')), 'the patch is shown as text, not an escaped string');
	has(lines, /^message +Done!$/);
	const failed = answer(action, {kind: 'ApplyPatchObservation', content: [{type: 'text', text: 'Invalid Context 0:\n  return x'}], is_error: true, message: 'Invalid Context 0:'});
	assert.deepEqual([eventSummary(failed).text, eventSummary(failed).tone], ['patch failed · Invalid Context 0:', 'error']);
	// A 5 MB patch is one scan.
	const big = `*** Begin Patch\n*** Add File: big.txt\n${'+line\n'.repeat(800_000)}*** End Patch`;
	assert.equal(patchRow(readPatch(big)), 'patch big.txt (new, +800,000)');
});

test('sub-agents: task shows the type and description, delegate its agents or tasks', () => {
	const task = call('task', {kind: 'TaskAction', description: 'Find the flaky test', prompt: 'Look through src/cart for timing-dependent tests and report which ones.', subagent_type: 'explore'});
	assert.equal(eventSummary(task).text, 'sub-agent explore: Find the flaky test');
	const lines = detailLines(task);
	has(lines, /^sub-agent +explore$/);
	has(lines, /^description +Find the flaky test$/);
	has(lines, /Look through src\/cart/);
	const resumed = call('task', {kind: 'TaskAction', prompt: 'Carry on with the audit.\nMore.', resume: 'task_7'});
	assert.equal(eventSummary(resumed).text, 'sub-agent general-purpose: Carry on with the audit. (resumes task_7)');
	const observation = answer(task, {kind: 'TaskObservation', content: [{type: 'text', text: 'Found 2 flaky tests.'}], is_error: false, task_id: 'task_7', subagent: 'explore', status: 'completed'});
	assert.equal(eventSummary(observation).text, 'sub-agent explore completed · Found 2 flaky tests.');
	assert.equal(eventSummary(call('delegate', {kind: 'DelegateAction', command: 'spawn', ids: ['lint', 'docs'], agent_types: ['programmer', '']})).text, 'delegate spawn lint (programmer), docs');
	assert.equal(eventSummary(call('delegate', {kind: 'DelegateAction', command: 'delegate', tasks: {lint: 'Fix the lint errors in src/', docs: 'Update the README'}})).text, 'delegate 2 tasks · lint: Fix the lint errors in src/; docs: Update the README');
});

test('invoke_skill, switch_llm and vision_inspect', () => {
	assert.equal(eventSummary(call('invoke_skill', {kind: 'InvokeSkillAction', name: 'github'})).text, 'skill github');
	const switched = call('switch_llm', {kind: 'SwitchLLMAction', profile_name: 'fast-cheap', reason: 'The rest is mechanical renaming.'});
	assert.equal(eventSummary(switched).text, 'switch LLM to fast-cheap: The rest is mechanical renaming.');
	assert.equal(eventSummary(answer(switched, {kind: 'SwitchLLMObservation', content: [], is_error: false, profile_name: 'fast-cheap', active_model: 'gpt-5-mini'})).text, 'now on fast-cheap (gpt-5-mini)');
	const vision = call('vision_inspect', {kind: 'VisionInspectAction', image_index: 0, question: 'Is the button aligned with the header?'});
	assert.equal(eventSummary(vision).text, 'vision: image #0: Is the button aligned with the header?');
	assert.equal(eventSummary(answer(vision, {kind: 'VisionInspectObservation', content: [], is_error: false, image_index: 0, question: 'q', answer: 'No: it sits 4px lower.'})).text, 'vision answer: No: it sits 4px lower.');
	assert.equal(eventSummary(answer(vision, {kind: 'InvokeSkillObservation', content: [{type: 'text', text: '# GitHub\nUse gh.'}], is_error: false, skill_name: 'github'})).text, 'skill github · 2 lines · # GitHub');
});

test('a kind the client does not know shows its tool name and its own fields, never "problem: unknown action kind"', () => {
	const tom = call('tom_consult', {kind: 'ConsultTomAction', reason: 'The user said "fast" without a target', use_user_message: true});
	assert.equal(eventSummary(tom).text, 'tom_consult · reason="The user said \\"fast\\" without a target", use_user_message=true');
	assert.equal(eventSummary(tom).tone, 'normal');
	const lines = detailLines(tom);
	has(lines, /^tool +tom_consult \(ConsultTomAction\)$/);
	has(lines, /^reason +The user said "fast" without a target$/);
	has(lines, /^use_user_message +true$/);
	assert.ok(!lines.some((line) => /problem|unknown action kind/.test(line)), lines.join('\n'));
	const client = call('open_pr_preview', {kind: 'ClientAction_open_pr_preview', url: 'https://github.com/acme/app/pull/12', focus: {file: 'src/a.ts', line: 3}});
	assert.equal(eventSummary(client).text, 'client tool open_pr_preview · url="https://github.com/acme/app/pull/12", focus={"file":"src/a.ts","line":3}');
	const clientLines = detailLines(client);
	has(clientLines, /^client tool +declared by the client/);
	has(clientLines, /"line": 3/);
	// Its observation, of a kind the client does not know either, shows its kind and fields, not "unrecognised".
	const observation = answer(tom, {kind: 'ConsultTomObservation', content: [{type: 'text', text: 'Ask for a latency target.'}], is_error: false, suggestions: 'Ask for a latency target.', confidence: 0.7});
	assert.equal(eventSummary(observation).text, 'ConsultTomObservation: Ask for a latency target.');
	const observed = detailLines(tom, observation);
	has(observed, /^observation +ConsultTomObservation$/);
	has(observed, /^confidence +0\.7$/);
	assert.ok(!observed.some((line) => line.includes('unrecognised')), observed.join('\n'));
	// A known kind with wrong fields is still a problem, and says so.
	const broken = call('apply_patch', {kind: 'ApplyPatchAction', patch: 42});
	assert.equal(eventSummary(broken).tone, 'warn');
	has(detailLines(broken), /^problem +/);
});
