import {execFileSync, spawnSync} from 'node:child_process';
import {rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {startSimulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxAvailable} from '../test/helpers/tmux.js';
import {waitForScreenOnOutput} from './pane-output.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, median, ms} from './table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the project (the compiled files resolve node_modules from there), one per run.
const outDir = `.bench-dist-${process.pid}`;

/**
 * Start-up as an installed user meets it: the bundled CLI (scripts/build.mjs into .bench-dist-PID, beside
 * node_modules), `--version`, and the time from launching the dashboard in a real terminal
 * (tmux) to the first screen that shows a conversation from the simulator.
 */
export async function benchStartup(sizes: Sizes): Promise<BenchRow[]> {
	rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	// The same build as `npm run build` (what `npm pack` ships), into a directory of its own.
	execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outDir], {cwd: root});
	const bin = `${outDir}/bin.cjs`;
	const versions: number[] = [];
	// Node's own start, between them: the floor under `--version`, which moves with the machine's load.
	const nodeAlone: number[] = [];
	for (let run = 0; run < (sizes.tiny ? 3 : 9); run++) {
		let started = performance.now();
		const result = spawnSync(process.execPath, [bin, '--version'], {cwd: root, encoding: 'utf8'});
		versions.push(performance.now() - started);
		if (result.status !== 0 || !/\d+\.\d+\.\d+/.test(result.stdout)) throw new Error(`--version failed: ${result.stderr}`);
		started = performance.now();
		spawnSync(process.execPath, ['-e', '0'], {cwd: root});
		nodeAlone.push(performance.now() - started);
	}
	const rows: BenchRow[] = [
		{area: 'start-up', name: `agent-tui --version, built (median of ${versions.length}; node -e 0: ${ms(median(nodeAlone))})`, figure: ms(median(versions)), target: '< 80 ms', met: median(versions) < 80},
	];
	if (!tmuxAvailable()) {
		rows.push({area: 'start-up', name: 'first frame with data: tmux is not installed', figure: '—', target: '< 400 ms', met: false});
		return rows;
	}
	const sim = await startSimulator({port: 0, seed: 2, tickMs: 0, conversations: 50});
	const firstTitle = sim.world.conversationList()[0]?.title.slice(0, 20) ?? '';
	const frames: number[] = [];
	// The floor, launched the same way between the dashboard's launches: Node writing the text the
	// dashboard's first frame is waited for, and nothing else. What a launch costs before any of
	// agent-tui runs (tmux, Node's own start), which moves with the machine's load.
	const floors: number[] = [];
	const shows = (screen: string) => screen.includes('Conversations (50)') && screen.includes(firstTitle.split(' ')[0] ?? '');
	const launch = async (command: string) => {
		const started = performance.now();
		const tmux = startTmux({columns: 120, rows: 32, command, cwd: root});
		try {
			await waitForScreenOnOutput(tmux.socket, tmux.target, shows);
			return performance.now() - started;
		} finally {
			tmux.kill();
		}
	};
	try {
		// Ten launches: the first compiles the bundle and fills Node's compile cache (a new build
		// directory is a new file to it), as a user's first run after an install does; the row is the
		// median of the nine after it, and names the first.
		for (let run = 0; run < (sizes.tiny ? 1 : 10); run++) {
			frames.push(await launch(`env -u CI OPENHANDS_API_KEY=${shellQuote(sim.apiKey)} node ${bin} --base-url ${shellQuote(sim.baseUrl)}; sleep 5`));
			const text = JSON.stringify(`Conversations (50) ${firstTitle}`);
			floors.push(await launch(`node -e ${shellQuote(`process.stdout.write(${text})`)}; sleep 5`));
		}
	} finally {
		await sim.close();
		rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	}
	const [first = Number.NaN, ...later] = frames;
	const timed = later.length > 0 ? later : frames;
	rows.push({
		area: 'start-up',
		name: `launch to the first frame showing conversations, built, in tmux (median of ${timed.length}${later.length > 0 ? ` after the first, which fills Node's compile cache: ${ms(first)}` : ''}; screen read as the pane writes; Node launched the same way writing the same text: ${ms(median(floors))})`,
		figure: ms(median(timed)),
		target: '< 400 ms',
		met: median(timed) < 400,
	});
	return rows;
}
