import {eventSummary} from '../source/format/event-summary.js';
import {startSimulator} from '../source/simulator/server.js';
import {JsonArrayScanner} from '../source/wire/stream-start.js';
import {terminalAction, terminalObservation} from '../test/helpers/event-fixtures.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, median, ms} from './table.js';

/**
 * How fast the pure readers are on inputs far larger than usual, as wall-clock figures. The tests
 * count their work instead (characters read, histories built), so their verdict does not depend on
 * the machine; the time is measured here, each figure the median of five runs after a warm-up.
 */
export async function benchBigInputs(sizes: Sizes): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	const timed = async (run: () => unknown | Promise<unknown>): Promise<number> => {
		await run();
		const runs: number[] = [];
		for (let round = 0; round < 5; round++) {
			const started = performance.now();
			await run();
			runs.push(performance.now() - started);
		}
		return median(runs);
	};

	// One timeline row for a 5 MB observation on one line: a bounded prefix and one newline count.
	const megabytes = sizes.tiny ? 0.5 : 5;
	const big = terminalObservation(terminalAction('cat big.log'), 'x'.repeat(Math.round(megabytes * 1024 * 1024)), 0);
	const summary = await timed(() => eventSummary(big));
	rows.push({area: 'format', name: `summary of a ${megabytes} MB one-line observation`, figure: ms(summary), target: '< 50 ms', met: summary < 50});

	// stream-start: a 4 MiB element and 20,000 small ones, pushed 1 KiB at a time.
	const large = JSON.stringify({id: 'big', text: 'x"\\y'.repeat(sizes.tiny ? 64 * 1024 : 1024 * 1024)});
	const small = Array.from({length: sizes.tiny ? 2000 : 20_000}, (_, index) => JSON.stringify({id: `t${index}`, status: 'WORKING'}));
	const body = `[${large},${small.join(',')}]`;
	const chunks = Array.from({length: Math.ceil(body.length / 1024)}, (_, index) => body.slice(index * 1024, (index + 1) * 1024));
	const scan = await timed(() => {
		const scanner = new JsonArrayScanner();
		const out: unknown[] = [];
		for (const chunk of chunks) scanner.push(chunk, out);
		if (out.length !== small.length + 1) throw new Error(`scanned ${out.length} elements`);
	});
	rows.push({
		area: 'wire',
		name: `stream-start scan of ${(body.length / 1024 / 1024).toFixed(1)} M chars in 1 KiB chunks (${(small.length + 1).toLocaleString('en-US')} elements)`,
		figure: ms(scan),
		target: '< 1000 ms',
		met: scan < 1000,
	});

	// The simulator with 10,000 conversations: started and its first page served; the last page.
	const conversations = sizes.tiny ? 1000 : 10_000;
	let lastPage = 0;
	const start = await timed(async () => {
		const sim = await startSimulator({port: 0, seed: 1, tickMs: 0, conversations});
		try {
			const first = await fetch(`${sim.baseUrl}/api/v1/app-conversations/search`, {headers: {authorization: `Bearer ${sim.apiKey}`}});
			await first.json();
			const started = performance.now();
			const deep = await fetch(`${sim.baseUrl}/api/v1/app-conversations/search?page_id=${conversations - 50}`, {headers: {authorization: `Bearer ${sim.apiKey}`}});
			await deep.json();
			lastPage = performance.now() - started;
		} finally {
			await sim.close();
		}
	});
	rows.push({area: 'simulator', name: `${conversations.toLocaleString('en-US')} conversations: start and first page`, figure: ms(start), target: '< 3000 ms', met: start < 3000});
	rows.push({area: 'simulator', name: `${conversations.toLocaleString('en-US')} conversations: the last page`, figure: ms(lastPage), target: '< 1000 ms', met: lastPage < 1000});
	return rows;
}
