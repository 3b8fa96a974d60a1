import {after, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {cliCommand} from './helpers/built-cli.js';
import {shellQuote, startTmux, tmuxSkip, type TmuxSession} from './helpers/tmux.js';

/** The timeline header says it follows the stream (`not following` is the other state). */
const following = (text: string) => /(?<!not )following\b/.test(text);

/**
 * Following a live stream where the timeline is the full width (80x24, or 160x48 zoomed with z):
 * new events scroll the pane with a scroll region (frame-diff.ts) instead of rewriting every row.
 * In a real terminal the screen must then match a full repaint of the same state, row for row.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxSkip;
const paneLog = (size: string) => join(tmpdir(), `agent-tui-follow-${process.pid}-${size}.bin`);

const simulators: Simulator[] = [];
const sessions: TmuxSession[] = [];
after(async () => {
	for (const session of sessions) session.kill();
	for (const sim of simulators) await sim.close();
	for (const size of ['80x24', '160x48']) rmSync(paneLog(size), {force: true});
});

/** The screen without the header's "Ns ago", which moves with the clock. */
const steady = (screen: string) => screen.split('\n').slice(1).join('\n');
/** The timeline header's event count while live (the stream's lag and the follow state stand between). */
const liveEvents = (screen: string): number | null => {
	const count = /live · (?:lag [^·]+ · )?(?:(?:not )?following(?: · [\d,]+ new)? · )?([\d,]+) events/.exec(screen)?.[1]?.replaceAll(',', '');
	return count === undefined ? null : Number(count);
};

test('following at 80x24 scrolls the pane in the terminal and leaves what a full repaint shows', {skip, timeout: 60_000}, async () => {
	await followAndCompare(80, 24, false);
});

test('following at 160x48 zoomed (z) scrolls the timeline in the terminal and leaves what a full repaint shows', {skip, timeout: 60_000}, async () => {
	await followAndCompare(160, 48, true);
});

async function followAndCompare(columns: number, rows: number, zoom: boolean): Promise<void> {
	const sim = await startSimulator({port: 0, seed: 5, tickMs: 0, conversations: 40});
	simulators.push(sim);
	const list = sim.world.conversationList();
	// Found with the filter line by its title, so one whose title no other conversation has.
	const conversation = list.find((candidate) => list.filter((other) => other.title === candidate.title).length === 1 && sim.world.events(candidate.id).length >= 5);
	assert.ok(conversation, 'a conversation with a history and a title of its own');
	const templates = sim.world.events(conversation.id).filter((event) => event.kind === 'ActionEvent' || event.kind === 'ObservationEvent');
	const app = `env -u CI OPENHANDS_API_KEY=${shellQuote(sim.apiKey)} ${cliCommand()} --base-url ${shellQuote(sim.baseUrl)}`;
	const session = startTmux({columns, rows, command: `${app}; sleep 60`, cwd: root});
	sessions.push(session);
	const log = paneLog(`${columns}x${rows}`);
	await session.waitFor((screen) => screen.includes('Conversations (40)'), 'the list');
	session.send('/');
	await session.waitFor((screen) => /\d+ of \d+/.test(screen), 'the filter line');
	session.send(conversation.title, {literal: true});
	await session.waitFor((screen) => /\b1 of 40\b/.test(screen), 'the one conversation with that title', 10_000);
	session.send('Enter');
	session.send('Enter');
	const opened = await session.waitFor((screen) => liveEvents(screen) !== null && following(screen), 'the timeline, live and following', 15_000);
	// The header names the zone of the event times once a poll pairs a live event with the app
	// server's time of the same moment (state/data-clock.ts), which on a busy machine can come after
	// the events below: the label would then change between the two screens compared. So it is
	// learned first: an event at a time until the header says UTC (the simulator's naive clock).
	let sentEarly = 0;
	const zoned = (screen: string) => /\bUTC · /.test(screen);
	while (!zoned(session.capture())) {
		assert.ok(sentEarly < 20, 'the header names the event times\' zone after 20 live events');
		appendLike(sim, conversation.id, templates, sentEarly++);
		await session.waitFor(zoned, 'the zone of the event times', 1000).catch(() => undefined);
	}
	const before = liveEvents(opened)! + sentEarly;
	await session.waitFor((screen) => liveEvents(screen) === before && following(screen) && zoned(screen), 'the zone learned, every event counted, following', 10_000);
	if (zoom) {
		session.send('z');
		await session.waitFor((screen) => screen.includes('zoomed (z)') && !/AGENT +SANDBOX/.test(screen), 'the timeline alone, the whole width');
	}

	// Record what the program writes while events arrive: five a second for three seconds at
	// 80x24 (the history already fills the pane); at 48 rows, enough to fill it and scroll, ten a second.
	session.pipe(log);
	const added = rows > 24 ? rows + 10 : 15;
	const gapMs = rows > 24 ? 100 : 200;
	for (let sent = 0; sent < added; sent++) {
		appendLike(sim, conversation.id, templates, sent);
		await new Promise((resolve) => setTimeout(resolve, gapMs));
	}
	const followed = await session.waitFor((screen) => liveEvents(screen) === before + added, 'every new event counted', 10_000);
	await new Promise((resolve) => setTimeout(resolve, 500));
	session.pipe(null);
	const written = readFileSync(log, 'latin1');
	// The pane was scrolled by the terminal: a scroll region set and reset.
	assert.match(written, /\u001B\[\d+;\d+r/);
	assert.match(written, /\u001B\[r/);

	// A resize makes the program repaint every row; the rows must not change.
	const scrolled = session.capture();
	assert.equal(liveEvents(scrolled), before + added, followed);
	// Both repaints must happen: one column wider (a different screen), then back at the size the
	// scrolled frames were written at, where every row must come back as the scrolls left it.
	session.resize(columns + 1, rows);
	// (The header's clock ticks on its own, so the rows below it are what is compared.)
	const wider = await session.waitFor((screen) => steady(screen) !== steady(scrolled), 'the repaint one column wider', 10_000);
	session.resize(columns, rows);
	await session.waitFor((screen) => steady(screen) !== steady(wider), 'the repaint back at the first size', 10_000);
	const repainted = await session
		.waitFor((screen) => steady(screen) === steady(scrolled), 'a full repaint showing what the scrolled frames left', 5000)
		.catch(() => session.capture());
	assert.equal(steady(repainted), steady(scrolled));
}

/** A new live event shaped like the `index`th of the conversation's own actions and observations. */
function appendLike(sim: Simulator, conversationId: string, templates: ReturnType<Simulator['world']['events']>, index: number): void {
	const {id: _id, timestamp: _timestamp, source: _source, ...rest} = templates[index % templates.length]!;
	sim.world.appendEvent(conversationId, {...rest, kind: String(rest.kind)});
}
