import os from 'node:os';
import {prepareInk} from './ink-harness.js';
import {fullSizes, tinySizes} from './sizes.js';
import {type BenchRow, renderTable} from './table.js';

// The stored-history rows' simulator, in a process of its own (bench/stored.ts): serve, measure nothing.
const serveStored = process.argv.find((arg) => arg.startsWith('--serve-stored-sim='));
if (serveStored) await (await import('./stored-sim.js')).serveStoredSim(Number(serveStored.split('=')[1]));
const serveReal = process.argv.find((arg) => arg.startsWith('--serve-real-stream='));
if (serveReal) {
	const [count, rate] = serveReal.split('=')[1]!.split(',').map(Number);
	await (await import('./real-stream-sim.js')).serveRealStreamSim(count!, rate!);
}

// Before anything loads Ink: the measurements render as a terminal would, not as CI.
prepareInk();
const {benchIngest} = await import('./ingest.js');
const {benchFrameCost} = await import('./frame-cost.js');
const {benchTimeline} = await import('./timeline.js');
const {benchTraffic} = await import('./traffic.js');
const {benchRequests} = await import('./requests.js');
const {benchFleet} = await import('./fleet.js');
const {benchStoredHistory} = await import('./stored-history.js');
const {benchStartup} = await import('./startup.js');
const {benchLongSession} = await import('./long-session.js');
const {benchChanges} = await import('./changes.js');
const {benchBounded, benchStored} = await import('./stored.js');
const {benchRealStream} = await import('./real-stream.js');
const {benchBigInputs} = await import('./big-inputs.js');
const {benchFollower} = await import('./follower.js');

/**
 * `npm run bench`: every speed and scale figure of the product against its target, in one
 * table. `--tiny` runs everything at small sizes (the test suite uses it to prove the bench
 * works); `--json` prints the rows as JSON instead of the table. `--only=a,b` runs those steps in
 * this process (under tsx when run from npm); with `--bundled`, bundled, each in its own process,
 * as the full table is measured.
 */

const args = new Set(process.argv.slice(2));
const sizes = args.has('--tiny') ? tinySizes : fullSizes;

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const steps: Array<{name: string; run: () => Promise<BenchRow[]>}> = [
	{name: 'ingest', run: () => benchIngest(sizes)},
	{name: 'frame', run: () => benchFrameCost(sizes)},
	{name: 'timeline', run: () => benchTimeline(sizes)},
	{name: 'changes', run: () => benchChanges(sizes)},
	{name: 'traffic', run: () => benchTraffic(sizes)},
	{name: 'requests', run: () => benchRequests(sizes)},
	{name: 'fleet', run: () => benchFleet(sizes)},
	{name: 'stored', run: () => benchStoredHistory(sizes)},
	{name: 'start-up', run: () => benchStartup(sizes)},
	{name: 'long', run: () => benchLongSession(sizes)},
	{name: 'stored-open', run: () => benchStored(sizes)},
	{name: 'bounded', run: () => benchBounded(sizes)},
	{name: 'real-stream', run: () => benchRealStream(sizes)},
	{name: 'big-inputs', run: () => benchBigInputs(sizes)},
	{name: 'follower', run: () => benchFollower(sizes)},
].filter((step) => !only || only.includes(step.name));

const rows: BenchRow[] = [];
if (only && !args.has('--bundled')) {
	for (const step of steps) {
		// A child of the bundled run (--json) leaves the progress line to its parent.
		if (!args.has('--json')) process.stderr.write(`bench: ${step.name}…\n`);
		rows.push(...(await step.run()));
	}
} else {
	// Each measurement in a process of its own: one step's heap and JIT state must not weigh on
	// the next one's timings or resident memory. The children run the bundled bench (see
	// bundle.ts), so the figures are those of the code an installed user runs.
	const {spawnSync} = await import('node:child_process');
	const {bundleBench} = await import('./bundle.js');
	const bundle = await bundleBench();
	try {
		for (const step of steps) {
			process.stderr.write(`bench: ${step.name}…\n`);
			const child = spawnSync(process.execPath, ['--expose-gc', bundle.file, `--only=${step.name}`, '--json', ...(sizes.tiny ? ['--tiny'] : [])], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024});
			if (child.status !== 0) throw new Error(`the ${step.name} measurement failed (exit ${child.status})`);
			rows.push(...(JSON.parse(child.stdout.trim().split('\n').at(-1)!) as BenchRow[]));
		}
	} finally {
		bundle.remove();
	}
}

if (args.has('--json')) {
	process.stdout.write(`${JSON.stringify(rows)}\n`);
} else {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	process.stdout.write(`agent-tui bench · Node ${process.version} · ${os.cpus().length} x ${cpu} · ${Math.round(os.totalmem() / 1024 ** 3)} GB${sizes.tiny ? ' · TINY sizes (not the targets)' : ''}\n\n`);
	process.stdout.write(`${renderTable(rows)}\n`);
	const missed = rows.filter((row) => !row.met).length;
	process.stdout.write(`\n${rows.length - missed} of ${rows.length} targets met.\n`);
}
