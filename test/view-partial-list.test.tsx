import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, recordingController} from './helpers/dashboard-fixture.js';
import {renderSized, waitForFrame} from './helpers/ink.js';

/**
 * The first frame can hold page 1 of several (100 of 240 rows), with approvals on later pages
 * (issue 41, item 6): until every page is in, the count says it is only so far and the attention
 * count is a lower bound; once the walk is complete both read plainly. The pages arrive by hand
 * here (`store.update`), so nothing depends on timing.
 */

test('until every page of the list is in, the counts say they are so far; then they read plainly', async () => {
	const full = fixtureSnapshot();
	const store = fixtureStore({...full, conversationsListed: false});
	const rendered = renderSized(<Dashboard store={store} controller={recordingController()} onQuit={() => undefined} />, {columns: 120, rows: 30});
	const partial = await waitForFrame(rendered.lastFrame, (frame) => frame.includes('Conversations ('));
	const count = full.conversations.size;
	assert.match(partial, new RegExp(`Conversations \\(${count} so far, reading more…\\)`));
	assert.match(partial, /\d+\+ need you \(n\)/, 'the attention count is a lower bound');
	store.update(() => ({conversationsListed: true}));
	const complete = await waitForFrame(rendered.lastFrame, (frame) => frame.includes(`Conversations (${count})`));
	assert.doesNotMatch(complete, /so far|reading more/);
	assert.match(complete, /\d+ need you \(n\)/);
	assert.doesNotMatch(complete, /\d+\+ need you/);
	rendered.unmount();
});
