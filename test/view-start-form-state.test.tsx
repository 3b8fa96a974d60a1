import {test} from 'node:test';
import assert from 'node:assert/strict';
import {buildLaunchLink} from '../source/wire/launch-link.js';
import {focusedStop, initialStartForm, type StartFormAction, startFormReducer, type StartFormState} from '../source/view/start/start-form-state.js';
import {phaseLines} from '../source/view/start/start-phases.js';
import {startTaskSchema} from '../source/wire/schemas/app.js';

const run = (actions: StartFormAction[], from: StartFormState = initialStartForm) => actions.reduce(startFormReducer, from);

test('a link pasted in the repository field fills the plugins, keeps the rest of the text, and needs trust', () => {
	const link = buildLaunchLink('https://app.example.com', [{source: 'github:o/p', ref: 'main'}], 'hello');
	let state = run([{type: 'set', field: 'repository', value: `octo/app ${link}`}]);
	assert.equal(state.repository, 'octo/app');
	assert.equal(state.message, 'hello');
	assert.deepEqual(state.plugins, [{source: 'github:o/p', ref: 'main', repo_path: ''}]);
	assert.deepEqual(focusedStop(state), {kind: 'plugin', index: 0, part: 'source'});
	// Tab to [start] (wrapping backwards is the short way) and press it.
	state = run([{type: 'focus', delta: -1}, {type: 'focus', delta: -1}, {type: 'focus', delta: -1}, {type: 'focus', delta: -1}], state);
	assert.deepEqual(focusedStop(state), {kind: 'submit'});
	state = run([{type: 'press'}], state);
	assert.equal(state.stage, 'trust');
	state = run([{type: 'set-trust', value: 'yes'}, {type: 'press'}], state);
	assert.equal(state.stage, 'trust');
	assert.match(state.errors[0] ?? '', /Type "trust"/);
	state = run([{type: 'set-trust', value: ' Trust '}, {type: 'press'}], state);
	assert.equal(state.stage, 'sent');
	assert.deepEqual(state.request, {message: 'hello', repository: 'octo/app', plugins: [{source: 'github:o/p', ref: 'main'}]});
});

test('a link arriving in pieces is decoded once it is whole; editing after trust asks again', () => {
	const link = buildLaunchLink('https://h.example', [{source: 'github:o/p'}]);
	const half = link.slice(0, link.length - 12);
	let state = run([{type: 'set', field: 'link', value: half}]);
	assert.ok(state.linkError, 'a partial link reports its problem');
	assert.equal(state.plugins.length, 0);
	state = run([{type: 'set', field: 'link', value: link}], state);
	assert.equal(state.linkError, null);
	assert.equal(state.link, '', 'the decoded link leaves the field');
	assert.equal(state.plugins.length, 1);
	// Removing every plugin that came from the link leaves nothing to trust.
	state = run([{type: 'focus', delta: 1}, {type: 'focus', delta: 1}, {type: 'focus', delta: 1}], state);
	assert.deepEqual(focusedStop(state), {kind: 'remove', index: 0});
	state = run([{type: 'press'}], state);
	assert.equal(state.plugins.length, 0);
	assert.equal(state.launch, null);
	assert.deepEqual(focusedStop(state), {kind: 'add'});
	state = run([{type: 'set', field: 'message', value: 'go'}, {type: 'focus', delta: 1}, {type: 'press'}], state);
	assert.equal(state.stage, 'sent', 'typed by the user, no trust step');
});

test('phases: each status once, in order, with unknown statuses kept', () => {
	const phases = ['WORKING', 'WORKING', 'WAITING_FOR_SANDBOX', 'FUTURE_STEP', 'ERROR'].map((status) => startTaskSchema.parse({id: 't', status}));
	assert.deepEqual(
		phaseLines(phases).map((line) => `${line.state} ${line.label}`),
		['done [0/8] WORKING', 'done [1/8] WAITING_FOR_SANDBOX', 'done [?/8] FUTURE_STEP', 'failed ERROR'],
	);
});
