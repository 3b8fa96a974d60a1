import {test} from 'node:test';
import assert from 'node:assert/strict';
import {normalizeId, dashedId, sameId} from '../source/wire/ids.js';
import {qualifyEventKind, shortEventKind, eventKindMatches} from '../source/wire/event-kinds.js';

test('both id forms compare equal', () => {
	const hex = '0123456789abcdef0123456789abcdef';
	assert.equal(dashedId(hex), '01234567-89ab-cdef-0123-456789abcdef');
	assert.equal(normalizeId(dashedId(hex).toUpperCase()), hex);
	assert.ok(sameId(hex, dashedId(hex)));
	assert.ok(!sameId(hex, hex.replace('0', '1')));
	assert.equal(normalizeId('not-an-id'), 'not-an-id');
});

test('short event kinds are qualified for the real server', () => {
	assert.equal(qualifyEventKind('ActionEvent'), 'openhands.sdk.event.llm_convertible.action.ActionEvent');
	assert.equal(qualifyEventKind('actionevent'), 'openhands.sdk.event.llm_convertible.action.ActionEvent');
	assert.equal(qualifyEventKind('SomethingNew'), 'SomethingNew');
	assert.equal(shortEventKind('openhands.sdk.event.condenser.Condensation'), 'Condensation');
	assert.ok(eventKindMatches('openhands.sdk.event.condenser.Condensation', 'Condensation'));
});
