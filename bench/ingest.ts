import {EventLog} from '../source/state/event-log.js';
import {mayHoldEncryptedContent, parseEvent} from '../source/wire/schemas/events.js';
import type {Sizes} from './sizes.js';
import {simulatorFrames} from './frames.js';
import {type BenchRow, median, perSecond, times} from './table.js';

/**
 * Events per second through what a socket frame goes through (JSON.parse, the envelope and
 * per-kind zod validation, encrypted_content scrubbing, dedupe and ordered insert into the log),
 * against bare JSON.parse of the same frames. Best of several rounds, after a warm-up.
 */
export async function benchIngest(sizes: Sizes): Promise<BenchRow[]> {
	const frames = await simulatorFrames(sizes.ingestFrames);
	const bytes = frames.reduce((sum, frame) => sum + frame.length, 0);
	const bare = () => {
		let sink = 0;
		for (const frame of frames) sink += (JSON.parse(frame) as {id: string}).id.length;
		return sink;
	};
	const full = () => {
		const log = new EventLog();
		// What EventSocket does with each text frame, then what the stream supervisor does with the event.
		for (const frame of frames) log.add([parseEvent(JSON.parse(frame), {mayHoldEncryptedContent: mayHoldEncryptedContent(frame)})]);
		if (log.size !== frames.length) throw new Error(`ingest kept ${log.size} of ${frames.length}`);
		return log.size;
	};
	const rate = (run: () => number) => {
		run();
		const rounds: number[] = [];
		for (let round = 0; round < 5; round++) {
			const started = performance.now();
			run();
			rounds.push(frames.length / ((performance.now() - started) / 1000));
		}
		return median(rounds);
	};
	const bareRate = rate(bare);
	const fullRate = rate(full);
	const ratio = fullRate / bareRate;
	return [
		{
			area: 'ingest',
			name: `events through parse+validate+dedupe+store (${frames.length.toLocaleString('en-US')} frames, avg ${Math.round(bytes / frames.length)} B)`,
			figure: perSecond(fullRate),
			target: '>= 0.5x JSON.parse',
			ratio: `${times(ratio)} of ${perSecond(bareRate)}`,
			met: ratio >= 0.5,
		},
	];
}
