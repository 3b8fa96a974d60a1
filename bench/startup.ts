import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {buildInputsHash} from '../scripts/build-inputs.mjs';
import {fileURLToPath} from 'node:url';
import {startSimulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxAvailable} from '../test/helpers/tmux.js';
import {waitForScreenOnOutput} from './pane-output.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, median, ms, times} from './table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the project (the compiled files resolve node_modules from there), one per run.
const outDir = `.bench-dist-${process.pid}`;
/** The single executable (`npm run package`), measured when it is built from the current sources. */
const executable = `${root}/dist/agent-tui-linux-x64`;

function freshExecutable(): boolean {
	const stamp = `${executable}.build-inputs`;
	return existsSync(executable) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === buildInputsHash();
}

/**
 * Start-up as an installed user meets it: the bundled CLI (scripts/build.mjs into .bench-dist-PID, beside
 * node_modules), `--version`, and the time from launching the dashboard in a real terminal
 * (tmux) to the first screen that shows a conversation from the simulator. The same for the single
 * executable (dist/agent-tui-linux-x64) when `npm run package` built it from these sources. Each
 * figure stands beside its floor, measured between its launches: Node's own start (`node -e 0`)
 * for `--version`, Node launched the same way writing the same text for the first frame.
 */
export async function benchStartup(sizes: Sizes): Promise<BenchRow[]> {
	rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	// The same build as `npm run build` (what `npm pack` ships), into a directory of its own.
	execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outDir], {cwd: root});
	const bin = `${outDir}/bin.cjs`;
	const withExecutable = freshExecutable();
	const versions: number[] = [];
	const executableVersions: number[] = [];
	// Node's own start, between them: the floor under `--version`, which moves with the machine's load.
	const nodeAlone: number[] = [];
	const timed = (command: string, args: readonly string[]) => {
		const started = performance.now();
		const result = spawnSync(command, args, {cwd: root, encoding: 'utf8'});
		const took = performance.now() - started;
		if (result.status !== 0 || !/\d+\.\d+\.\d+/.test(result.stdout)) throw new Error(`${command} --version failed: ${result.stderr}`);
		return took;
	};
	for (let run = 0; run < (sizes.tiny ? 3 : 15); run++) {
		versions.push(timed(process.execPath, [bin, '--version']));
		if (withExecutable) executableVersions.push(timed(executable, ['--version']));
		const started = performance.now();
		spawnSync(process.execPath, ['-e', '0'], {cwd: root});
		nodeAlone.push(performance.now() - started);
	}
	const floor = median(nodeAlone);
	const versionRow = (what: string, figures: number[]): BenchRow => ({
		area: 'start-up',
		name: `${what} --version (median of ${figures.length}; node -e 0 between them: ${ms(floor)})`,
		figure: ms(median(figures)),
		target: '< 80 ms, ~1.05x node -e 0',
		ratio: times(median(figures) / floor),
		met: median(figures) < 80 && median(figures) / floor <= 1.15,
	});
	const rows: BenchRow[] = [versionRow('agent-tui, built,', versions)];
	rows.push(withExecutable ? versionRow('the single executable', executableVersions) : {area: 'start-up', name: 'the single executable: not built from these sources (npm run package)', figure: '—', target: '—', met: true});
	if (!tmuxAvailable()) {
		rows.push({area: 'start-up', name: 'first frame with data: tmux is not installed', figure: '—', target: '< 400 ms', met: false});
		return rows;
	}
	const sim = await startSimulator({port: 0, seed: 2, tickMs: 0, conversations: 50});
	const firstTitle = sim.world.conversationList()[0]?.title.slice(0, 20) ?? '';
	const frames: number[] = [];
	const executableFrames: number[] = [];
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
	// Each launch with a state folder of its own: the shared request budget (state/budget-ledger.ts)
	// would otherwise pace the twentieth launch of a minute as it paces a twentieth client, and the
	// figure would be the budget's wait, not the start.
	const stateRoot = mkdtempSync(`${tmpdir()}/agent-tui-bench-state-`);
	let launches = 0;
	const server = () => `env -u CI XDG_STATE_HOME=${shellQuote(`${stateRoot}/${launches++}`)} OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`;
	try {
		// Ten launches: the first compiles the bundle and fills Node's compile cache (a new build
		// directory is a new file to it), as a user's first run after an install does; the row is the
		// median of the nine after it, and names the first.
		for (let run = 0; run < (sizes.tiny ? 1 : 10); run++) {
			frames.push(await launch(`${server()} node ${bin} --base-url ${shellQuote(sim.baseUrl)}; sleep 5`));
			if (withExecutable) executableFrames.push(await launch(`${server()} ${shellQuote(executable)} --base-url ${shellQuote(sim.baseUrl)}; sleep 5`));
			const text = JSON.stringify(`Conversations (50) ${firstTitle}`);
			floors.push(await launch(`node -e ${shellQuote(`process.stdout.write(${text})`)}; sleep 5`));
		}
	} finally {
		await sim.close();
		rmSync(stateRoot, {recursive: true, force: true});
		rmSync(`${root}/${outDir}`, {recursive: true, force: true});
	}
	const frameFloor = median(floors);
	const [first = Number.NaN, ...later] = frames;
	const packaged = later.length > 0 ? later : frames;
	const frameRow = (name: string, figures: number[]): BenchRow => ({
		area: 'start-up',
		name: `${name}; screen read as the pane writes; Node launched the same way writing the same text: ${ms(frameFloor)})`,
		figure: ms(median(figures)),
		target: '< 400 ms, <= 2x the floor',
		ratio: times(median(figures) / frameFloor),
		met: median(figures) < 400 && median(figures) / frameFloor <= 2,
	});
	rows.push(frameRow(`launch to the first frame showing conversations, built, in tmux (median of ${packaged.length}${later.length > 0 ? ` after the first, which fills Node's compile cache: ${ms(first)}` : ''}`, packaged));
	// The executable has its code cache inside: its first launch is like the others.
	if (withExecutable) rows.push(frameRow(`launch to the first frame showing conversations, the single executable, in tmux (median of ${executableFrames.length}`, executableFrames));
	return rows;
}
