import {EventLog} from '../source/state/event-log.js';
import {executionStatusOf, transientEvent} from '../source/state/stream-events.js';
import {settleEvent} from '../source/wire/schemas/events.js';
import {readTextFrame} from '../source/wire/text-frame.js';
import type {Sizes} from './sizes.js';
import {simulatorFrames} from './frames.js';
import {type BenchRow, median, perSecond, times} from './table.js';

/**
 * Events per second through what a socket frame goes through in the dashboard (the socket's own
 * reader, wire/text-frame.ts: the envelope scanned from the text, or the frame parsed whole when
 * it may hold encrypted_content, which is then scrubbed; the supervisor's transient and
 * execution-status checks, which validate state updates with zod; dedupe and ordered insert into
 * the log), against bare JSON.parse of the same frames. (Until 2026-11-26 this row timed an older
 * path, JSON.parse of every frame then its envelope, which the socket had stopped using.) Other payloads are validated when a row first shows them
 * (events.ts PendingEvent; `settle` below measures that separately). The median of seven
 * paired rounds, after a warm-up.
 */
export async function benchIngest(sizes: Sizes): Promise<BenchRow[]> {
	const frames = await simulatorFrames(sizes.ingestFrames);
	const bytes = frames.reduce((sum, frame) => sum + frame.length, 0);
	const bare = () => {
		let sink = 0;
		for (const frame of frames) sink += (JSON.parse(frame) as {id: string}).id.length;
		return sink;
	};
	let kept = new EventLog();
	const full = () => {
		const log = new EventLog();
		let statuses = 0;
		for (const frame of frames) {
			// What EventSocket does with each text frame (validate: 'on-read')…
			const {event} = readTextFrame(frame, frame.length, true);
			if (!event) throw new Error('a simulator frame was refused');
			// …then what the stream supervisor does with it.
			if (transientEvent(event)) continue;
			if (executionStatusOf(event) !== undefined) statuses++;
			log.add([event]);
		}
		if (log.size + statuses === 0 || log.size > frames.length) throw new Error(`ingest kept ${log.size} of ${frames.length}`);
		kept = log;
		return log.size;
	};
	// Validating every payload of the log afterwards, as if every row were shown once.
	const settle = () => {
		let sink = 0;
		for (const event of kept.events) sink += settleEvent(event).id.length;
		return sink;
	};
	const rate = (run: () => number) => {
		const started = performance.now();
		run();
		return frames.length / ((performance.now() - started) / 1000);
	};
	// Paired rounds, each ratio from a bare and a full pass run back to back: on a shared
	// machine the speed drifts between seconds, and timing all bare passes before all full ones
	// once moved the ratio from 0.37x to 0.61x with nothing changed.
	bare();
	full();
	const bareRates: number[] = [];
	const fullRates: number[] = [];
	const ratios: number[] = [];
	for (let round = 0; round < 7; round++) {
		bareRates.push(rate(bare));
		fullRates.push(rate(full));
		ratios.push(fullRates.at(-1)! / bareRates.at(-1)!);
	}
	const bareRate = median(bareRates);
	const fullRate = median(fullRates);
	const ratio = median(ratios);
	full();
	const settleStarted = performance.now();
	settle();
	const settleRate = kept.size / ((performance.now() - settleStarted) / 1000);
	return [
		{
			area: 'ingest',
			name: `events through parse+validate+dedupe+store (${frames.length.toLocaleString('en-US')} frames, avg ${Math.round(bytes / frames.length)} B; payloads validated on first display: ${perSecond(settleRate)})`,
			figure: perSecond(fullRate),
			target: '>= 0.5x JSON.parse',
			ratio: `${times(ratio)} of ${perSecond(bareRate)}`,
			met: ratio >= 0.5,
		},
	];
}
