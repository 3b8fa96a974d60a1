import {after, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxAvailable, type TmuxSession} from './helpers/tmux.js';

/**
 * Following a live stream at 80x24, where the timeline is the full width: new events scroll the
 * pane with a scroll region (frame-diff.ts) instead of rewriting every row. In a real terminal the
 * screen must then match a full repaint of the same state, row for row.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxAvailable() ? false : 'tmux is not installed: the end-to-end tests need it (apt-get install tmux)';
const paneLog = join(tmpdir(), `agent-tui-follow-${process.pid}.bin`);

let simulator: Simulator | undefined;
let tmux: TmuxSession | undefined;
after(async () => {
	tmux?.kill();
	await simulator?.close();
	rmSync(paneLog, {force: true});
});

/** The screen without the header's "Ns ago", which moves with the clock. */
const steady = (screen: string) => screen.split('\n').slice(1).join('\n');

test('following at 80x24 scrolls the pane in the terminal and leaves what a full repaint shows', {skip, timeout: 60_000}, async () => {
	simulator = await startSimulator({port: 0, seed: 5, tickMs: 0, conversations: 40});
	const sim = simulator;
	const list = sim.world.conversationList();
	// Found with the filter line by its title, so one whose title no other conversation has.
	const conversation = list.find((candidate) => list.filter((other) => other.title === candidate.title).length === 1 && sim.world.events(candidate.id).length >= 5);
	assert.ok(conversation, 'a conversation with a history and a title of its own');
	const templates = sim.world.events(conversation.id).filter((event) => event.kind === 'ActionEvent' || event.kind === 'ObservationEvent');
	const app = `env -u CI OPENHANDS_API_KEY=${shellQuote(sim.apiKey)} node --import tsx source/bin.ts --base-url ${shellQuote(sim.baseUrl)}`;
	tmux = startTmux({columns: 80, rows: 24, command: `${app}; sleep 60`, cwd: root});
	const session = tmux;
	await session.waitFor((screen) => screen.includes('Conversations (40)'), 'the list');
	session.send('/');
	await session.waitFor((screen) => /\d+ of \d+/.test(screen), 'the filter line');
	session.send(conversation.title, {literal: true});
	await session.waitFor((screen) => /\b1 of 40\b/.test(screen), 'the one conversation with that title', 10_000);
	session.send('Enter');
	session.send('Enter');
	const opened = await session.waitFor((screen) => /live · \d+ events/.test(screen) && screen.includes('following'), 'the timeline, live and following', 15_000);
	const before = Number(/live · (\d+) events/.exec(opened)?.[1]);

	// Record what the program writes while events arrive, five a second for three seconds.
	session.pipe(paneLog);
	const added = 15;
	for (let sent = 0; sent < added; sent++) {
		const {id: _id, timestamp: _timestamp, source: _source, ...rest} = templates[sent % templates.length]!;
		sim.world.appendEvent(conversation.id, {...rest, kind: String(rest.kind)});
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const followed = await session.waitFor((screen) => screen.includes(`live · ${before + added} events`), 'every new event counted', 10_000);
	await new Promise((resolve) => setTimeout(resolve, 500));
	session.pipe(null);
	const written = readFileSync(paneLog, 'latin1');
	// The pane was scrolled by the terminal: a scroll region set and reset.
	assert.match(written, /\u001B\[\d+;\d+r/);
	assert.match(written, /\u001B\[r/);

	// A resize makes the program repaint every row; the rows must not change.
	const scrolled = session.capture();
	assert.ok(scrolled.includes(`live · ${before + added} events`), followed);
	session.resize(81, 24);
	await session.waitFor((screen) => screen.split('\n')[0]!.length > 0 && screen !== scrolled, 'the repaint at 81 columns', 10_000).catch(() => '');
	session.resize(80, 24);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	const repainted = session.capture();
	assert.equal(steady(scrolled), steady(repainted));
});
