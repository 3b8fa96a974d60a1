import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {ShownRange, TimelineState} from '../source/state/dashboard-types.js';
import type {WireEvent} from '../source/wire/schemas/events.js';
import {eventually} from './helpers/eventually.js';
import {keys, press as pressOnly, renderSized, waitForFrame} from './helpers/ink.js';
import {message, resetFixtureClock} from './helpers/event-fixtures.js';
import {TimelineHarness, TimelineSource} from './helpers/pane-harness.js';
import {cellWidth} from '../source/format/width.js';

/** The timeline header says it follows the stream (`not following` is the other state). */
const following = (text: string) => /(?<!not )following\b/.test(text);

/**
 * The timeline over a stored history (the sandbox is not running): the header's mark, older pages
 * asked for only when the window reaches the oldest event, `g` reading on to the first event, and
 * the oldest row on screen pinned while not following. The source plays the session: each
 * onLoadOlder puts the next older page in front, as the stored-history pager does.
 */

const withoutColour = (frame: string) => frame.replaceAll(/\u001B\[[\d;]*m/g, '');
const selectedLine = (frame: string) => withoutColour(frame).split('\n').find((line) => line.startsWith('›')) ?? '';

function storedHistory(total: number): WireEvent[] {
	resetFixtureClock();
	return Array.from({length: total}, (_, index) => message('user', `stored note ${String(index).padStart(3, '0')}`));
}

/** A stored history read back a page at a time from the newest end, like OlderEvents. */
class PagedHistory {
	readonly source: TimelineSource;
	requests = 0;
	readonly pins: Array<ShownRange | null> = [];
	#loaded: number;

	constructor(readonly all: WireEvent[], sandboxStatus = 'PAUSED', readonly pageSize = 100) {
		this.#loaded = Math.min(pageSize, all.length);
		this.source = new TimelineSource(this.#state(sandboxStatus));
	}

	#state(sandboxStatus: string): TimelineState {
		const events = this.all.slice(this.all.length - this.#loaded);
		return {
			conversationKey: 'c0ffee00c0ffee00c0ffee00c0ffee00',
			events,
			version: 1,
			stream: {state: 'idle', attempt: 0},
			executionStatus: 'error',
			gap: false,
			stored: {sandboxStatus},
			older: {state: this.#loaded < this.all.length ? 'more' : 'none', pages: 1},
		};
	}

	loadOlder = () => {
		this.requests++;
		this.source.update({older: {state: 'loading', pages: this.requests}});
		setTimeout(() => {
			this.#loaded = Math.min(this.all.length, this.#loaded + this.pageSize);
			const state = this.#state(this.source.get().stored!.sandboxStatus);
			this.source.update({events: state.events, older: {...state.older!, pages: this.requests + 1}});
		}, 5);
	};

	pin = (range: ShownRange | null) => this.pins.push(range);
}

function mount(history: PagedHistory, columns = 80, rows = 16) {
	return renderSized(<TimelineHarness source={history.source} width={columns} height={rows} onLoadOlder={history.loadOlder} onPin={history.pin} />, {columns, rows: rows + 2});
}

/** Press and wait for the frame (waitForFrame then lets React run the effects where handlers register). */
const press = pressOnly;

test('stored history: the header leads with the mark (after the times\' zone) and says the counts cover loaded events', async (t) => {
	const history = new PagedHistory(storedHistory(250));
	const view = mount(history);
	t.after(() => view.unmount());
	const frame = withoutColour(await waitForFrame(view.lastFrame, (text) => text.includes('stored note 249')));
	assert.match(frame, /^server-local · stored history · sandbox PAUSED · r resume to go live · \S+ last e/m);
	for (const line of frame.split('\n')) assert.ok(cellWidth(line) <= 80, line);
	// At 160 columns the rest of the header fits too.
	const wide = mount(new PagedHistory(storedHistory(250)), 160, 16);
	t.after(() => wide.unmount());
	const wideFrame = withoutColour(await waitForFrame(wide.lastFrame, (text) => text.includes('stored note 249')));
	assert.match(wideFrame, /100 loaded events · older on scroll up/);

	// A missing sandbox cannot be resumed: no advice to.
	const missing = mount(new PagedHistory(storedHistory(20), 'MISSING'), 160, 16);
	t.after(() => missing.unmount());
	const missingFrame = withoutColour(await waitForFrame(missing.lastFrame, (text) => text.includes('stored note 019')));
	assert.match(missingFrame, /stored history · sandbox MISSING · /);
	assert.doesNotMatch(missingFrame, /resume to go live/);
	assert.match(missingFrame, /20 events/);
	assert.doesNotMatch(missingFrame, /older on scroll/);
});

test('the first screen asks for no older page; scrolling to the oldest row does, one page at a time', async (t) => {
	const history = new PagedHistory(storedHistory(250));
	// Wide enough for the header's count after the stored-history mark (at 80 the mark and the zone fill it).
	const view = mount(history, 140);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => text.includes('stored note 249'));
	// A key read after the first screen is handled after everything that screen set off.
	await press(view, 'k', (text) => /stored note 248/.test(selectedLine(text)), 'the selection one row up');
	assert.equal(history.requests, 0, 'the newest page is all the first screen needs');
	// Up a page at a time until the window shows the oldest loaded event (stored note 150).
	for (let step = 0; step < 8 && history.requests === 0; step++) await press(view, keys.pageUp, () => true);
	await waitForFrame(view.lastFrame, (text) => text.includes('200 load'));
	assert.ok(history.requests >= 1);
	// The selection stayed on the event it was on: older events came in above it, one key away.
	assert.match(selectedLine(view.lastFrame() ?? ''), /stored note 150/);
	await press(view, 'k', (text) => text.includes('stored note 149'));
	assert.match(selectedLine(view.lastFrame() ?? ''), /stored note 149/);
});

test('g reads on to the first event and selects it; the oldest row on screen is pinned until f follows again', async (t) => {
	const history = new PagedHistory(storedHistory(450));
	const view = mount(history, 160);
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => text.includes('stored note 449'));
	await press(view, 'g', () => true);
	const top = withoutColour(await waitForFrame(view.lastFrame, (text) => text.includes('stored note 000') && withoutColour(text).includes('450 events'), {timeoutMs: 10_000}));
	assert.equal(history.requests, 4, 'one request per older page, none after the first event');
	assert.match(selectedLine(top), /stored note 000/);
	assert.doesNotMatch(top, /older on scroll|loaded events/);
	await eventually(() => history.pins.at(-1)?.oldest.id, 'the oldest row on screen pinned', {until: (id) => id === history.all[0]!.id});
	// And the newest on screen: a 16-row pane less its header shows 15.
	assert.equal(history.pins.at(-1)?.newest.id, history.all[14]!.id, 'and so is the newest row on screen');
	await press(view, 'f', (text) => following(text));
	await waitForFrame(view.lastFrame, (text) => text.includes('stored note 449'));
	await eventually(() => history.pins.at(-1), 'following: nothing pinned', {until: (range) => range === null});
});

/**
 * A window at the old end of a long history (the newest end dropped to bound memory), like the
 * session after `g`: newer pages come back one at a time as the user scrolls down to them, and
 * `G` reads the newest page again instead.
 */
class WindowAtTop {
	readonly source: TimelineSource;
	newerRequests = 0;
	toNewest = 0;
	#end: number;

	constructor(readonly all: WireEvent[], held = 200) {
		this.#end = held;
		this.source = new TimelineSource({
			conversationKey: 'c0ffee00c0ffee00c0ffee00c0ffee00',
			events: all.slice(0, held),
			version: 1,
			stream: {state: 'idle', attempt: 0},
			executionStatus: 'error',
			gap: false,
			stored: {sandboxStatus: 'PAUSED'},
			older: {state: 'none', pages: 1},
			newer: {state: 'none', pages: 1},
		});
	}

	/** What the session's trim does once the view is at the top: the newest end is gone. */
	dropNewest = () => this.source.update({newer: {state: 'more', pages: 1}});

	loadNewer = () => {
		this.newerRequests++;
		this.source.update({newer: {state: 'loading', pages: 1}});
		setTimeout(() => {
			this.#end = Math.min(this.all.length, this.#end + 100);
			this.source.update({events: this.all.slice(0, this.#end), newer: {state: this.#end < this.all.length ? 'more' : 'none', pages: 1}});
		}, 5);
	};

	toNewestPage = () => {
		this.toNewest++;
		this.source.update({events: [], older: {state: 'loading', pages: 1}, newer: {state: 'none', pages: 1}});
		setTimeout(() => this.source.update({events: this.all.slice(-100), older: {state: 'more', pages: 1}}), 5);
	};
}

test('a window whose newest end was dropped: newer pages as the user scrolls down to them, G reads the newest page again', async (t) => {
	const history = new WindowAtTop(storedHistory(1000));
	const view = renderSized(<TimelineHarness source={history.source} width={160} height={16} onLoadNewer={history.loadNewer} onToNewest={history.toNewestPage} />, {columns: 160, rows: 18});
	t.after(() => view.unmount());
	await waitForFrame(view.lastFrame, (text) => text.includes('stored note'));
	await press(view, 'g', (text) => text.includes('stored note 000'));
	history.dropNewest();
	await waitForFrame(view.lastFrame, (text) => /loaded events · newer on scroll down · G newest/.test(withoutColour(text)), {message: 'the header says newer events are not loaded'});
	const atTop = history.newerRequests;
	// At the top nothing newer is asked for; paging down to the newest held event asks for the next page.
	await press(view, keys.pageDown, () => true);
	assert.equal(history.newerRequests, atTop, 'not while the newest held event is off screen');
	for (let step = 0; step < 20 && history.newerRequests === atTop; step++) await press(view, keys.pageDown, () => true);
	assert.ok(history.newerRequests > atTop);
	await waitForFrame(view.lastFrame, (text) => withoutColour(text).includes('300 loaded'));
	const selected = selectedLine(view.lastFrame() ?? '');
	// The selection stayed on its event as the page came in below it, and moves on into the new page.
	assert.match(selected, /stored note 199/);
	await press(view, keys.pageDown, () => true);
	assert.match(selectedLine(view.lastFrame() ?? ''), /stored note 2\d\d/);
	// G: one read of the newest page, not eight walking down; its newest event selected.
	const walked = history.newerRequests;
	await press(view, 'G', () => true);
	const newest = withoutColour(await waitForFrame(view.lastFrame, (text) => selectedLine(text).includes('stored note 999')));
	assert.equal(history.toNewest, 1);
	assert.equal(history.newerRequests, walked, 'G walked no newer pages');
	assert.doesNotMatch(newest, /newer on scroll down/);
});
