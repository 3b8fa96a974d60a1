import {createElement} from 'react';
import type {TimelineState} from '../source/state/dashboard-types.js';
import {mayHoldEncryptedContent, parseEventLater} from '../source/wire/schemas/events.js';
import {fixtureSnapshot, fixtureStore, fleetSeeds, hexId, recordingController} from '../test/helpers/dashboard-fixture.js';
import {frameAt, simulatorTemplates} from './frames.js';
import {keyToFrame, mount, settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, mb, median, ms} from './table.js';

/**
 * One conversation with 100,000 events (the simulator's, repeated): switch to its timeline, type
 * a kind filter, jump to the end, scroll; each timed from the key to the frame, at 160x48. Then
 * the resident memory of this process holding them.
 */
export async function benchTimeline(sizes: Sizes): Promise<BenchRow[]> {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	// Read one frame at a time as the dashboard's stream reads them (envelope now, payload when a
	// row shows it), so the memory figure is the events held, not the frames.
	const templates = await simulatorTemplates();
	const events = Array.from({length: sizes.timelineEvents}, (_, index) => {
		const frame = frameAt(templates, index);
		return parseEventLater(JSON.parse(frame), {mayHoldEncryptedContent: mayHoldEncryptedContent(frame), text: frame});
	});
	const key = hexId(1);
	const timeline: TimelineState = {conversationKey: key, events, version: 1, stream: {state: 'live', attempt: 0}, executionStatus: 'running', gap: false};
	const store = fixtureStore(fixtureSnapshot({timeline}, fleetSeeds()));
	const mounted = await mount(createElement(Dashboard, {store, controller: recordingController(), onQuit: () => undefined}), {columns: 160, rows: 48});
	await settle(50);
	const count = events.length.toLocaleString('en-US');
	// Each key is timed several times and the median is the row: one press is hostage to whatever
	// else the process does in those few milliseconds (a young-generation collection is 1-3 ms), and
	// rows of 1-2 ms compared across builds need enough presses that a slow one cannot move the
	// median. The first of each, which also runs code for the first time in the process, is in the name.
	const repeats = sizes.tiny ? 2 : 15;
	const opened = (frame: string) => frame.includes(`${count} events`);
	const firstOpen = await keyToFrame(mounted, '3', opened);
	const opens: number[] = [];
	for (let again = 0; again < repeats; again++) {
		await keyToFrame(mounted, '1');
		opens.push(await keyToFrame(mounted, '3', opened));
	}
	const typed = (frame: string) => frame.includes('kind:ActionEvent');
	const filters: number[] = [];
	for (let again = 0; again <= repeats; again++) {
		if (again > 0) await keyToFrame(mounted, '\u001B', (frame) => !typed(frame));
		await keyToFrame(mounted, '/', (frame) => frame.includes('match'));
		await settle(20);
		filters.push(await keyToFrame(mounted, 'kind:ActionEvent', typed));
	}
	await keyToFrame(mounted, '\r', (frame) => !frame.includes('enter keep'));
	// Every key below moves the cursor, so each makes a frame: to the top, the end, then up a row at a time.
	const ends: number[] = [];
	for (let again = 0; again <= repeats; again++) {
		await keyToFrame(mounted, 'g');
		ends.push(await keyToFrame(mounted, 'G'));
	}
	const scrolls: number[] = [];
	for (let press = 0; press < (sizes.tiny ? 20 : 60); press++) scrolls.push(await keyToFrame(mounted, 'k'));
	(globalThis as {gc?: () => void}).gc?.();
	const {rss, heapUsed} = process.memoryUsage();
	mounted.unmount();
	const row = (name: string, value: number): BenchRow => ({area: 'timeline', name: `${name}, ${count} events`, figure: ms(value), target: '< 50 ms', met: value < 50});
	return [
		row(`open the timeline (key to frame, median of ${opens.length} after the first: ${ms(firstOpen)})`, median(opens)),
		row(`filter kind:ActionEvent (typed to frame, median of ${filters.length - 1} after the first: ${ms(filters[0]!)})`, median(filters.slice(1))),
		row(`jump to the end (G, median of ${ends.length - 1} after the first: ${ms(ends[0]!)})`, median(ends.slice(1))),
		row(`scroll one row (median of ${scrolls.length})`, median(scrolls)),
		{area: 'timeline', name: `resident memory of the process holding ${count} events on screen (heap ${mb(heapUsed)})`, figure: mb(rss), target: '< 300 MB', met: rss < 300 * 1024 * 1024},
	];
}
