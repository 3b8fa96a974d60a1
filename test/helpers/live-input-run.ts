import {after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../../source/simulator/server.js';
import {bracketedPaste, shellQuote, startTmux, type TmuxSession} from './tmux.js';
import {assertFits, filterLine, screenLines} from './e2e-dashboard.js';
import {cliCommand} from './built-cli.js';

/**
 * The dashboard built, in tmux, against the simulator with its clock three weeks behind, with a
 * probe loaded into its process (test/fixtures/e2e-probe.ts): what e2e-live-input.test.ts and
 * e2e-live-input-long-run.test.ts share. Two files because Node's runner gives each file as a
 * whole the same 60 s as each test (`--test-timeout`), and the long run alone takes half of it.
 * Issue 15's "done when":
 * - keys that arrive together all count: two backspaces in one write, `/status:error` typed in
 *   one write, `status:stuck` pasted as a bracketed paste;
 * - nothing but the frame reaches the terminal: a warning, a console.error and a raw stderr
 *   write from inside the process (test/fixtures/e2e-probe.ts, on SIGUSR2) land in the debug log
 *   and on the notice line, never over the frame; after quitting, stderr prints again;
 * - a long run of polling with socket drops leaves only the frame on screen and the abort
 *   listener counts flat (e2e-live-input-long-run.test.ts says how it is shortened).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const simulators: Simulator[] = [];
const sessions: TmuxSession[] = [];
const dirs: string[] = [];
after(async () => {
	for (const session of sessions) session.kill();
	await Promise.all(simulators.map((simulator) => simulator.close()));
	for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
});

/** Text a warning printer or a stray write would put on screen. */
export const strayText = /\(node:\d+\)|--trace-warnings|Warning: |E2E-PROBE (console|raw)|MaxListeners/;

export type Run = {tmux: TmuxSession; sim: Simulator; probe: string; config: string};

export async function launch(columns: number, rows: number, conversations: number, poll: string): Promise<Run> {
	const sim = await startSimulator({port: 0, seed: 7, tickMs: 400, conversations, clockOffsetMs: -21 * 86_400_000});
	simulators.push(sim);
	const dir = mkdtempSync(join(tmpdir(), 'agent-tui-e2e-live-'));
	dirs.push(dir);
	const probe = join(dir, 'probe.jsonl');
	const config = join(dir, 'config');
	const app = [
		'env -u CI',
		`XDG_CONFIG_HOME=${shellQuote(config)}`,
		`E2E_PROBE_FILE=${shellQuote(probe)}`,
		`AGENT_TUI_POLL=${shellQuote(poll)}`,
		`OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`,
		'NODE_ENV=production',
		cliCommand(['--import', 'tsx', '--import', './test/fixtures/e2e-probe.ts']),
		`--base-url ${shellQuote(sim.baseUrl)}`,
	].join(' ');
	const command = `printf 'SHELL-BEFORE\\n'; ${app}; printf 'EXIT=%s\\n' $?; sleep 60`;
	const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(command)}`, cwd: root});
	sessions.push(tmux);
	await tmux.waitFor((screen) => screen.includes(`Conversations (${conversations})`), 'the list', 30_000);
	return {tmux, sim, probe, config};
}

/** Keys together, a paste, then the stray output checks. */
export async function inputAndStrayOutput({tmux, probe, config}: Run, columns: number): Promise<void> {
	const fits = (screen: string) => assertFits(screen, columns);
	// Two backspaces in one write.
	tmux.send('/');
	await tmux.waitFor((screen) => / of \d+/.test(filterLine(screen)), 'the filter line');
	tmux.send('status:stuckxx', {literal: true});
	await tmux.waitFor((screen) => filterLine(screen).includes('status:stuckxx'), 'the typed filter');
	tmux.send('\u007F\u007F', {literal: true});
	let screen = await tmux.waitFor((text) => /\/ status:stuck\s/.test(filterLine(text)) && !filterLine(text).includes('stuckx'), 'both backspaces applied');
	fits(screen);
	tmux.send('Escape');
	await tmux.waitFor((text) => filterLine(text) === '', 'the filter cleared');

	// `/status:error` and Enter in one write: the filter opens, takes the text, is applied.
	tmux.send('/status:error\r', {literal: true});
	screen = await tmux.waitFor((text) => filterLine(text).includes('status:error') && text.includes('esc clears'), 'the filter typed and applied in one write');
	fits(screen);
	tmux.send('Escape');
	await tmux.waitFor((text) => filterLine(text) === '', 'the filter cleared');

	// A bracketed paste into the filter line, then Enter.
	tmux.send('/');
	await tmux.waitFor((text) => / of \d+/.test(filterLine(text)), 'the filter line');
	bracketedPaste(tmux, 'status:stuck');
	await tmux.waitFor((text) => filterLine(text).includes('status:stuck'), 'the pasted filter');
	tmux.send('Enter');
	await tmux.waitFor((text) => filterLine(text).includes('status:stuck') && text.includes('esc clears'), 'the pasted filter applied');
	tmux.send('Escape');
	await tmux.waitFor((text) => filterLine(text) === '', 'the filter cleared');

	// A warning, a console.error and a stderr write from inside the process while it draws.
	const pid = Number(readFileSync(`${probe}.pid`, 'utf8'));
	process.kill(pid, 'SIGUSR2');
	screen = await tmux.waitFor((text) => text.includes('Captured output'), 'the notice about captured output');
	const shown = screenLines(screen);
	const noticeAt = shown.findIndex((line) => line.includes('Captured output'));
	assert.ok(shown.slice(0, noticeAt).every((line) => !strayText.test(line)), `nothing stray above the notice line:\n${screen}`);
	assert.match(shown[0] ?? '', /│/, 'the header is still the first line: the frame did not move');
	fits(screen);
	const log = join(config, 'agent-tui', 'debug.log');
	const logged = readFileSync(log, 'utf8');
	assert.match(logged, /ProbeWarning: E2E-PROBE warning while the dashboard draws/);
	assert.match(logged, /console\.error: E2E-PROBE console\.error line/);
	assert.match(logged, /stderr: E2E-PROBE raw stderr line/);
	assert.equal(statSync(log).mode & 0o777, 0o600);
}

export async function quit({tmux}: Run): Promise<string> {
	tmux.send('q');
	const screen = await tmux.waitFor((text) => text.includes('EXIT='), 'the exit', 20_000);
	assert.match(screen, /EXIT=0/);
	assert.match(screen, /SHELL-BEFORE/, 'the shell screen is back');
	assert.match(screen, /E2E-PROBE after exit: stderr prints again/, 'stderr is given back on the way out');
	return screen;
}
