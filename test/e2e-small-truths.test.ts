import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {setStatus} from '../source/simulator/agent-runtime.js';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Smaller untruths, in a real terminal (tmux) at 80x24: the cursor sits on the top row that needs
 * you until you move it, however the list re-sorts; `/` opens with the filter selected, so typing
 * starts a new one; opening another conversation never shows the previous one's events.
 */

const lines = screenLines;
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';
/** The list's rows: below its column header, up to the first empty line. */
function listRows(screen: string): string[] {
	const all = lines(screen);
	const header = all.findIndex((line) => line.includes('AGENT') && line.includes('TITLE'));
	const rows: string[] = [];
	for (const line of all.slice(header + 1)) {
		if (line.trim() === '') break;
		rows.push(line);
	}
	return rows;
}

// No ticking: statuses stay where the tests put them; a ticking one for the stream.
const launchStill = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30});
// A live stream keeps the store's publishing busy, as following a real conversation does.
const launchLive = dashboardLauncher({seed: 7, tickMs: 150, conversations: 30});

describe('smaller untruths, in tmux at 80x24', {skip: tmuxSkip, concurrency: 2}, () => {
	test('the cursor stays on the top row that needs you while rows that need you more arrive', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launchStill(80, 24);
		let screen = await tmux.waitFor((text) => /need you/.test(text) && listRows(text).length > 5, 'the list', 30_000);
		assert.equal(selected(screen), listRows(screen)[0], 'the first screen: the top row');
		// A running conversation starts waiting for confirmation: it sorts to the top.
		const running = simulator.world
			.conversationList()
			.find((entry) => simulator.world.findSandbox(entry.sandboxId)?.status === 'RUNNING' && (simulator.world.agent(entry), entry.executionStatus === 'running'));
		assert.ok(running, 'a running conversation');
		setStatus(simulator.world, running, 'waiting_for_confirmation');
		const title = running.title.slice(0, 12);
		screen = await tmux.waitFor((text) => (listRows(text)[0] ?? '').includes(title), 'the newly waiting row on top', 30_000);
		assertFits(screen, 80);
		assert.equal(selected(screen), listRows(screen)[0], `the cursor is on the top row, not the one drawn first:\n${screen}`);
		// The positive half: a row picked by hand is kept as rows re-sort.
		tmux.send('j');
		screen = await tmux.waitFor((text) => selected(text) === listRows(text)[1], 'the second row picked');
		const picked = selected(screen).slice(30, 55);
		const other = simulator.world.conversationList().find((entry) => entry !== running && simulator.world.findSandbox(entry.sandboxId)?.status === 'RUNNING' && entry.executionStatus === 'running');
		assert.ok(other);
		setStatus(simulator.world, other, 'waiting_for_confirmation');
		screen = await tmux.waitFor((text) => (listRows(text)[0] ?? '').includes(other.title.slice(0, 12)), 'another waiting row on top', 30_000);
		assert.ok(selected(screen).includes(picked), `the picked row stays picked: ${selected(screen)}`);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('/ opens with the filter selected: typing replaces it, → keeps it', {timeout: 90_000}, async () => {
		const {tmux} = await launchStill(80, 24);
		await tmux.waitFor((text) => /need you/.test(text) && listRows(text).length > 5, 'the list', 30_000);
		tmux.send('/');
		await tmux.waitFor((text) => text.includes(' of 30'), 'the filter line');
		tmux.send('Rebuild', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => text.includes('/ Rebuild') && text.includes('esc clears'), 'the filter applied');
		tmux.send('/');
		tmux.send('Migrate', {literal: true});
		let screen = await tmux.waitFor((text) => /\/ Migrate/.test(text), 'the typed filter');
		assert.doesNotMatch(screen, /RebuildMigrate/);
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => text.includes('/ Migrate') && text.includes('esc clears'), 'the new filter applied');
		assert.ok(listRows(screen).length > 0 && listRows(screen).every((row) => row.includes('Migrate')), screen);
		// → keeps the filter and types after it.
		tmux.send('/');
		tmux.send('Right');
		tmux.send(' CI', {literal: true});
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => text.includes('/ Migrate CI') && text.includes('esc clears'), 'the filter narrowed');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('opening another conversation never shows the previous one’s events', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launchLive(80, 24);
		await tmux.waitFor((text) => /need you/.test(text) && listRows(text).length > 5, 'the list', 30_000);
		const first = simulator.world.conversationList().find((entry) => entry.scenario === 'long-runner')!;
		const second = simulator.world.conversationList().find((entry) => entry.scenario === 'coding' && simulator.world.findSandbox(entry.sandboxId)?.status === 'RUNNING')!;
		const open = async (title: string) => {
			tmux.send('/');
			await tmux.waitFor((text) => text.includes(' of 30'), 'the filter line');
			tmux.send(title.slice(0, 20), {literal: true});
			tmux.send('Enter');
			await tmux.waitFor((text) => selected(text).includes(title.slice(0, 12)) && text.includes('esc clears'), `${title} selected`);
		};
		await open(first.title);
		tmux.send('Enter');
		await tmux.waitFor((text) => text.includes(`[3 Timeline: ${first.title.slice(0, 12)}`) && / live /.test(text), 'the first conversation live', 30_000);
		// Back to the list, the second one selected, and enter: every frame from then on.
		tmux.send('1');
		await tmux.waitFor((text) => text.includes('[1 Conversations'), 'the list again');
		await open(second.title);
		tmux.send('Enter');
		const stale: string[] = [];
		const until = Date.now() + 1500;
		while (Date.now() < until) {
			const screen = tmux.capture();
			if (screen.includes(`[3 Timeline: ${first.title.slice(0, 12)}`)) stale.push(screen);
		}
		const screen = await tmux.waitFor((text) => text.includes(`[3 Timeline: ${second.title.slice(0, 12)}`), 'the second conversation open');
		assert.equal(stale.length, 0, `the previous conversation's timeline was on screen ${stale.length} times after enter:\n${stale[0] ?? ''}`);
		assert.doesNotMatch(screen, new RegExp(first.title.slice(0, 12)));
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
