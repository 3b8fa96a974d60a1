import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after} from 'node:test';
import {fileURLToPath} from 'node:url';
import type {Simulator} from '../../source/simulator/server.js';
import {cliCommand} from './built-cli.js';
import {shellQuote, startTmux, type TmuxSession} from './tmux.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Several servers as profiles, for the `--all-profiles` end-to-end tests: a private XDG config
 * folder (`agent-tui-<name>-…`), simulators configured there as named profiles, and the built
 * CLI (cliCommand: the tests' cache folder) in tmux with that folder and no OPENHANDS_* from the
 * developer's shell. The file's sessions and simulators end, and the folder goes, after its tests.
 */
export function profilesInTmux(name: string) {
	const home = mkdtempSync(join(tmpdir(), `agent-tui-${name}-`));
	const simulators: Simulator[] = [];
	const sessions: TmuxSession[] = [];
	after(async () => {
		for (const session of sessions) session.kill();
		await Promise.all(simulators.map((simulator) => simulator.close()));
		rmSync(home, {recursive: true, force: true});
	});
	return {
		/** Writes the config naming each simulator by its profile (closed after the file's tests). */
		configure(profiles: Record<string, Simulator>, defaultProfile: string): void {
			simulators.push(...Object.values(profiles));
			mkdirSync(join(home, 'agent-tui'), {recursive: true});
			const config = Object.fromEntries(Object.entries(profiles).map(([profile, sim]) => [profile, {baseUrl: sim.baseUrl, apiKey: sim.apiKey}]));
			writeFileSync(join(home, 'agent-tui', 'config.json'), JSON.stringify({defaultProfile, profiles: config}), {mode: 0o600});
		},
		/** The dashboard with `args` in a tmux of `columns`x`rows`; `EXIT=<code>` is printed when it ends. */
		launch(columns: number, rows: number, args: string): TmuxSession {
			const app = ['env -u CI -u OPENHANDS_BASE_URL -u OPENHANDS_API_KEY', `XDG_CONFIG_HOME=${shellQuote(home)}`, 'NODE_ENV=production', cliCommand(), args].join(' ');
			const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
			sessions.push(tmux);
			return tmux;
		},
	};
}
