import {test} from 'node:test';
import assert from 'node:assert/strict';
import {heapFlags} from '../source/memory-profile.js';
import {runNode} from './helpers/run-process.js';

// The flags are set with v8.setFlagsFromString as the dashboard starts. V8 answers a flag it does
// not know on stderr, over the dashboard's first frame, and ignores every flag after it.

async function setInChild(flags: string): Promise<{code: number | null; stderr: string; stdout: string}> {
	const script = `require('node:v8').setFlagsFromString(${JSON.stringify(flags)}); process.stdout.write('set')`;
	return runNode(['-e', script], {cwd: process.cwd(), timeoutMs: 20_000});
}

test('memory saver mode where V8 has it (13 and later: Node 24, 26), --optimize-for-size before', () => {
	assert.equal(heapFlags('12.4.254.21-node.57'), '--optimize-for-size');
	assert.equal(heapFlags('13.6.233.17-node.53'), '--memory-saver-mode --heap-growing-percent=50');
	assert.equal(heapFlags('14.6.202.34-node.34'), '--memory-saver-mode --heap-growing-percent=50');
});

test('this Node knows every heap flag chosen for it, and setting them prints nothing', {timeout: 45_000}, async () => {
	const flags = heapFlags(process.versions.v8);
	const known = (await runNode(['--v8-options'], {cwd: process.cwd(), timeoutMs: 20_000})).stdout;
	for (const flag of flags.split(' ')) {
		const name = flag.split('=')[0]!;
		assert.ok(known.includes(`\n  ${name} `), `${name} is not a V8 flag of Node ${process.version}`);
	}
	const set = await setInChild(flags);
	assert.equal(set.code, 0);
	assert.equal(set.stdout, 'set');
	assert.equal(set.stderr, '');
	// The check above can see a refusal: an unknown flag is answered on stderr.
	const refused = await setInChild('--no-such-heap-flag-at-all');
	assert.equal(refused.stdout, 'set');
	assert.match(refused.stderr, /unrecognized flag/);
});

// Run in a child: the heap flags are the whole process's.
const actingScript = `
import {GCProfiler} from 'node:v8';
import {heapFlags, noteKeyPressed, preferMemoryOverSpeed, savingMemoryNow} from './source/memory-profile.ts';
preferMemoryOverSpeed();
// Young objects by the million, a few kept: the allocation of a diff or a page of events.
const collections = () => {
	const profiler = new GCProfiler();
	profiler.start();
	const kept = [];
	for (let round = 0; round < 10; round++) {
		const batch = [];
		for (let index = 0; index < 200_000; index++) batch.push({index, text: 'x' + index, pair: [index, index]});
		kept.push(batch.length);
	}
	return profiler.stop().statistics.length;
};
const states = [savingMemoryNow()];
const saving = collections();
noteKeyPressed();
states.push(savingMemoryNow());
const acting = collections();
noteKeyPressed();
states.push(savingMemoryNow());
while (!savingMemoryNow() && states[0]) await new Promise((resolve) => setTimeout(resolve, 50));
states.push(savingMemoryNow());
process.stdout.write(JSON.stringify({flags: heapFlags(process.versions.v8), states, saving, acting}));
`;

test('a key turns memory saver mode off (V8 collects for speed while a person acts), and it comes back by itself', {timeout: 60_000}, async () => {
	const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', actingScript], {cwd: process.cwd(), timeoutMs: 50_000});
	assert.equal(run.code, 0, run.stderr);
	const {flags, states, saving, acting} = JSON.parse(run.stdout) as {flags: string; states: boolean[]; saving: number; acting: number};
	if (!flags.includes('--memory-saver-mode')) {
		// Node 22: --optimize-for-size is set once and never switched.
		assert.deepEqual(states, [false, false, false, false]);
		return;
	}
	// Saving, then acting after a key (and after a second key), then saving again once the keys stop.
	assert.deepEqual(states, [true, false, false, true]);
	// V8 read the switch: the same allocation ran far fewer collections while acting (measured 420
	// against 60 for forty times this work).
	assert.ok(acting * 2 < saving, `${acting} collections while acting, ${saving} while saving memory`);
});
