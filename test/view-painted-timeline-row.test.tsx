import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import chalk from 'chalk';
import fc from 'fast-check';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {kindLabel} from '../source/format/event-kind-label.js';
import {padToWidth, truncateToWidth} from '../source/format/width.js';
import {startSimulator} from '../source/simulator/server.js';
import {TimelineRow, toneColor} from '../source/view/timeline/TimelineRow.js';
import {isCondensationRow, summaryOf} from '../source/view/timeline/summary-cache.js';
import {sourceLabel, type TimelineColumns} from '../source/view/timeline/timeline-columns.js';
import {type LoggedEvent, parseEventLater} from '../source/wire/schemas/events.js';

/**
 * A timeline row is one Text holding a string painted ahead of time (boundary/ink-paint.ts). It
 * must show exactly what the nested Texts it replaced showed: colours, dim, bold and the bar.
 */

const cell = (text: string, width: number) => (width > 0 ? `${padToWidth(text, width)} ` : '');

/** The row as it was written before it was painted ahead: a Text per column. */
function NestedRow({event, columns, selected, forgotten, following}: {event: LoggedEvent; columns: TimelineColumns; selected: boolean; forgotten: boolean; following: boolean}) {
	const summary = summaryOf(event);
	const condensation = isCondensationRow(event);
	const gutter = `${selected ? '›' : condensation ? '≡' : forgotten ? '·' : ' '} `;
	const text = condensation ? `── ${summary.text} ──` : summary.text;
	const bar = selected && !following;
	return (
		<Text inverse={bar} wrap="truncate">
			{selected && following ? (
				<Text bold color="cyan">
					{gutter}
				</Text>
			) : (
				gutter
			)}
			<Text dimColor>{cell(summary.time, columns.time)}</Text>
			<Text color="cyan">{cell(sourceLabel(summary.source), columns.source)}</Text>
			<Text color={condensation ? 'yellow' : 'blue'}>{cell(kindLabel(summary.kind), columns.kind)}</Text>
			<Text color={toneColor[summary.tone]} dimColor={forgotten && !bar}>
				{truncateToWidth(text, columns.summary)}
			</Text>
		</Text>
	);
}

// The simulator's events: every kind it writes (actions, observations, errors, condensations,
// messages, states), with their real summaries and tones, plus one of a kind nobody knows.
const events: LoggedEvent[] = [];
before(async () => {
	const sim = await startSimulator({port: 0, seed: 11, tickMs: 0, conversations: 12});
	try {
		sim.step(40);
		for (const conversation of sim.world.conversationList()) {
			for (const event of sim.world.events(conversation.id)) events.push(parseEventLater(JSON.parse(JSON.stringify(event))));
		}
	} finally {
		await sim.close();
	}
	events.push(parseEventLater({id: 'x1', timestamp: '2026-11-26T10:00:00.000001', source: 'agent', kind: 'TelepathyEvent', note: 'unheard of'}));
});

const level = chalk.level;
before(() => {
	chalk.level = 3;
});
after(() => {
	chalk.level = level;
});

// Each run renders two rows through Ink: a timeout of its own, above the suite's minute. 70 runs
// (a new seed each time the suite runs, on each Node): 200 took 20-27 s of the file's minute on a
// slow day (2026-11-27) and over the minute beside two busy loops, so the verdict hung on the machine.
test('property: the painted timeline row shows what the nested Texts showed', {timeout: 180_000}, async () => {
	const kinds = new Set(events.map((event) => summaryOf(event).kind));
	assert.ok(kinds.size >= 8, `the simulator's events cover many kinds (${[...kinds].join(', ')})`);
	assert.ok(events.some((event) => isCondensationRow(event)), 'a condensation among them');
	assert.ok(events.some((event) => summaryOf(event).tone !== 'normal'), 'a row with a tone among them');
	const columns = fc.record({gutter: fc.constant(2), time: fc.constantFrom(0, 8, 12), source: fc.constantFrom(0, 5, 6), kind: fc.constantFrom(0, 6, 14), summary: fc.integer({min: 0, max: 140})});
	await fc.assert(
		fc.asyncProperty(fc.integer({min: 0, max: events.length - 1}), columns, fc.boolean(), fc.boolean(), fc.boolean(), async (index, widths, selected, forgotten, following) => {
			// Yield first, so the file's timers (its timeout, the hang watchdog) run between renders.
			await new Promise((resolve) => setImmediate(resolve));
			const props = {event: events[index]!, columns: widths, selected, forgotten, following};
			const nested = render(<NestedRow {...props} />);
			const painted = render(<TimelineRow {...props} />);
			try {
				assert.equal(painted.lastFrame(), nested.lastFrame());
			} finally {
				nested.unmount();
				painted.unmount();
			}
		}),
		{numRuns: 70},
	);
});

test('a painted timeline row carries its colours: the bar, the following mark, a dimmed forgotten row', async () => {
	const event = events.find((candidate) => !isCondensationRow(candidate) && summaryOf(candidate).tone === 'normal')!;
	const columns: TimelineColumns = {gutter: 2, time: 12, source: 6, kind: 14, summary: 60};
	const frame = (selected: boolean, forgotten: boolean, following: boolean) => {
		const view = render(<TimelineRow event={event} columns={columns} selected={selected} forgotten={forgotten} following={following} />);
		const text = view.lastFrame() ?? '';
		view.unmount();
		return text;
	};
	assert.match(frame(true, false, false), /\u001B\[7m/, 'the selected row is inverted');
	assert.doesNotMatch(frame(false, false, false), /\u001B\[7m/, 'an unselected row is not');
	assert.match(frame(true, false, true), /\u001B\[1m\u001B\[36m› /, 'following: the gutter mark bold and cyan');
	assert.match(frame(false, true, false), new RegExp(`\u001B\\[2m${summaryOf(event).text.slice(0, 10).replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'a forgotten row is dimmed');
});
