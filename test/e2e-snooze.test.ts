import assert from 'node:assert/strict';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, test} from 'node:test';
import {cliCommand} from './helpers/built-cli.js';
import {screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';
import {snoozeWorld, waitingOf} from './helpers/snooze-world.js';
import {shellQuote, startTmux, type TmuxSession} from './helpers/tmux.js';

/**
 * Snooze as a new user would try it, against the built CLI and simulators on port 0 (the headless
 * commands are in cli-snooze.test.ts): in the dashboard (tmux) `s` takes
 * the waiting conversation out of `!`, a restart with the same state directory still has it out,
 * and once the simulator changes it (a new event) it is back. Then the same with three simulators
 * as three profiles (`--all-profiles`): only the snoozed server's row leaves the queue.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const sessions: TmuxSession[] = [];
const {home, stateHome, simulator} = snoozeWorld('e2e-snooze', () => {
	for (const session of sessions) session.kill();
});

function launch(args: string, env: Record<string, string> = {}): TmuxSession {
	const vars = Object.entries({XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: stateHome, HOME: home, AGENT_TUI_POLL: 'searchMs=500,refreshMs=300', ...env}).map(([name, value]) => `${name}=${shellQuote(value)}`);
	const app = ['env -u CI -u OPENHANDS_BASE_URL -u OPENHANDS_API_KEY', ...vars, 'NODE_ENV=production', cliCommand(), args].join(' ');
	const tmux = startTmux({columns: 120, rows: 30, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	sessions.push(tmux);
	return tmux;
}

/** The queue's line for a cause (`waiting for approval   2   5m  …`), or '' when it is not a group. */
const queueLine = (screen: string, cause: string) => screenLines(screen).find((line) => /^[› ] /.test(line) && line.slice(2).startsWith(cause)) ?? '';
const rowOf = (screen: string, title: string) => screenLines(screen).find((line) => /^[› ] /.test(line) && line.includes(title)) ?? '';

async function quit(tmux: TmuxSession): Promise<void> {
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit');
	tmux.kill();
}

describe('snooze against the simulator', {skip: tmuxSkip}, () => {
	test('120x30: s takes the waiting one out of !, a restart keeps it out, a new event brings it back', {timeout: 120_000}, async () => {
		const sim = await simulator('one-key');
		const waiting = waitingOf(sim);
		// The badge goes before the title and the column cuts it: its first words are enough.
		const title = String(waiting.title).slice(0, 15);
		const args = `--base-url ${shellQuote(sim.baseUrl)}`;
		const env = {OPENHANDS_API_KEY: sim.apiKey};
		let tmux = launch(args, env);
		let screen = await tmux.waitFor((text) => rowOf(text, title).includes('! approve?'), 'the waiting row', 30_000);
		tmux.send('/');
		tmux.send('status:waiting', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => rowOf(text, title).startsWith('›') && text.includes('esc clears'), 'the row selected');
		tmux.send('s');
		await tmux.waitFor((text) => text.includes('until it changes') && text.includes('for a week'), 'the chooser');
		tmux.send('s');
		screen = await tmux.waitFor((text) => text.includes('Snoozed ') && rowOf(text, title).includes('z approve?'), 'snoozed, marked');
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('esc clears'), 'the filter cleared');
		tmux.send('!');
		screen = await tmux.waitFor((text) => text.includes('What needs you'), 'the queue');
		assert.equal(queueLine(screen, 'waiting for approval'), '', 'out of the queue');
		assert.notEqual(queueLine(screen, 'stuck'), '', 'the others still there');
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you'), 'the queue closed');
		await quit(tmux);

		// A restart, same state directory: still out of the queue, still marked.
		tmux = launch(args, env);
		screen = await tmux.waitFor((text) => rowOf(text, title).includes('z approve?'), 'still snoozed after a restart', 30_000);
		tmux.send('!');
		screen = await tmux.waitFor((text) => text.includes('What needs you'), 'the queue');
		assert.equal(queueLine(screen, 'waiting for approval'), '');
		// The simulator changes it: a new event moves its updated_at. It comes back by itself.
		sim.world.sendMessage(waiting.id, 'one more thing', false);
		screen = await tmux.waitFor((text) => queueLine(text, 'waiting for approval') !== '', 'back in the queue', 30_000);
		tmux.send('Escape');
		screen = await tmux.waitFor((text) => !text.includes('What needs you') && /! approve\?/.test(rowOf(text, title)), 'its ! again');
		await quit(tmux);
	});

	test('three simulators as three profiles: only the snoozed server\'s row leaves the queue, across a restart', {timeout: 120_000}, async () => {
		const servers = {one: await simulator('p1-key'), two: await simulator('p2-key'), three: await simulator('p3-key')};
		mkdirSync(join(home, 'xdg', 'agent-tui'), {recursive: true});
		writeFileSync(
			join(home, 'xdg', 'agent-tui', 'config.json'),
			JSON.stringify({defaultProfile: 'one', profiles: Object.fromEntries(Object.entries(servers).map(([name, sim]) => [name, {baseUrl: sim.baseUrl, apiKey: sim.apiKey}]))}),
			{mode: 0o600},
		);
		// The same seed: the waiting conversation has one id on all three.
		const waiting = waitingOf(servers.two);
		let tmux = launch('--all-profiles');
		let screen = await tmux.waitFor((text) => /3 servers/.test(text) && text.includes('need you'), 'all three servers', 30_000);
		tmux.send('!');
		screen = await tmux.waitFor((text) => /waiting for approval\s+3\b/.test(queueLine(text, 'waiting for approval')), 'three waiting', 30_000);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you'), 'the queue closed');
		tmux.send('/');
		tmux.send('server:two status:waiting', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => /1 of \d+/.test(text) && /^› two\b/.test(screenLines(text).find((line) => line.startsWith('›')) ?? ''), 'two\'s waiting row selected');
		tmux.send('s');
		await tmux.waitFor((text) => text.includes('for a week'), 'the chooser');
		tmux.send('s');
		await tmux.waitFor((text) => text.includes('Snoozed '), 'snoozed');
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('esc clears'), 'the filter cleared');
		tmux.send('!');
		screen = await tmux.waitFor((text) => /waiting for approval\s+2\b/.test(queueLine(text, 'waiting for approval')), 'two waiting left');
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you'), 'the queue closed');
		await quit(tmux);

		tmux = launch('--all-profiles');
		// Every server's rows listed (36): then the queue's count is the whole truth. The snoozed row
		// ranks with those that need nothing (below the screen): the filter lists it, marked.
		screen = await tmux.waitFor((text) => text.includes('Conversations (36)') && screenLines(text).filter((line) => /^[› ] (one|three)\s+◆ waiting\s.*\s! /.test(line)).length === 2, 'all three again', 30_000);
		assert.ok(!screenLines(screen).some((line) => /^[› ] two\s+◆ waiting\s.*\s! /.test(line)), 'two\'s is not among those that need you');
		tmux.send('/');
		tmux.send('snoozed', {literal: true});
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => /1 of 36/.test(text) && text.includes('esc clears'), 'the snoozed filter');
		assert.match(screenLines(screen).find((line) => line.startsWith('› ')) ?? '', /^› two\s+◆ waiting\s.*\sz /);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('esc clears'), 'the filter cleared');
		tmux.send('!');
		await tmux.waitFor((text) => /waiting for approval\s+2\b/.test(queueLine(text, 'waiting for approval')), 'still two after a restart', 30_000);
		servers.two.world.sendMessage(waiting.id, 'one more thing', false);
		await tmux.waitFor((text) => /waiting for approval\s+3\b/.test(queueLine(text, 'waiting for approval')), 'three again once two\'s changed', 30_000);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you'), 'the queue closed');
		await quit(tmux);
	});
});
