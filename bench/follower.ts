import {execFileSync, spawn} from 'node:child_process';
import {readFileSync, rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {startSimulator} from '../source/simulator/server.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, mb, times} from './table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = `.bench-dist-follow-${process.pid}`;

/**
 * A follower that stays small: the built CLI's `events --follow --json` (stdout read and counted,
 * as `| jq` would), following a conversation whose agent writes events of ~0.6 KB as fast as the
 * follower prints them. Its resident memory (the kernel's VmRSS of that process) after the first
 * `followerEvents[0]` events and after `followerEvents[1]`: it prints and forgets, so the ratio
 * stays at or under 1.1. (It held every event before: 104 -> 168 MB over 20,000.)
 */
export async function benchFollower(sizes: Sizes): Promise<BenchRow[]> {
	const [early, late] = sizes.followerEvents;
	rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outDir], {cwd: root});
	const sim = await startSimulator({port: 0, seed: 13, tickMs: 0, conversations: 4});
	const row = sim.world.conversationList().find((candidate) => sim.world.findSandbox(candidate.sandboxId)?.status === 'RUNNING' && candidate.scenario === 'long-runner');
	if (!row) throw new Error('no running long-runner in the simulator');
	const child = spawn(process.execPath, [`${outDir}/bin.cjs`, 'events', row.id, '--follow', '--json', '--base-url', sim.baseUrl], {
		cwd: root,
		env: {...process.env, OPENHANDS_API_KEY: sim.apiKey, NODE_OPTIONS: ''},
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const startedWith = sim.world.events(row).length;
	let lines = 0;
	let wake: (() => void) | undefined;
	child.stdout.on('data', (chunk: Buffer) => {
		for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines++;
		wake?.();
	});
	const printed = (count: number) =>
		new Promise<void>((resolve, reject) => {
			const check = () => {
				if (lines >= count) {
					wake = undefined;
					resolve();
				} else if (child.exitCode !== null) reject(new Error(`the follower exited (${child.exitCode}) after ${lines} lines`));
			};
			wake = check;
			check();
		});
	const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024;
	const text = 'x'.repeat(500);
	let written = 0;
	/** Writes events up to `count` past the history, never more than 2,000 ahead of the follower. */
	const feed = async (count: number) => {
		while (written < count) {
			const batch = Math.min(200, count - written);
			for (let index = 0; index < batch; index++) {
				sim.world.appendEvent(row, {kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: `#${written + index} ${text}`}], thinking_blocks: []}} as never);
			}
			written += batch;
			await printed(startedWith + written - 2000);
		}
		await printed(startedWith + count);
	};
	try {
		await printed(startedWith);
		const started = performance.now();
		await feed(early);
		const atEarly = rss();
		await feed(late);
		const atLate = rss();
		const seconds = (performance.now() - started) / 1000;
		const ratio = atLate / atEarly;
		return [
			{
				area: 'follower',
				name: `events --follow --json, built: resident memory after ${late.toLocaleString('en-US')} events (~0.6 KB each, ${(late / seconds).toFixed(0)}/s) against after ${early.toLocaleString('en-US')} (${mb(atEarly)})`,
				figure: mb(atLate),
				target: 'ratio <= 1.1',
				ratio: times(ratio),
				met: ratio <= 1.1,
			},
		];
	} finally {
		child.kill('SIGKILL');
		await sim.close();
		rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	}
}
