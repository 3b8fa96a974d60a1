import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {normalizeId} from '../source/wire/ids.js';
import {assertFits, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';
import {profilesInTmux} from './helpers/e2e-profiles.js';

/**
 * Every server at once, as a new user would try it: two simulators on port 0 configured as
 * profiles `work` and `lab` in a private XDG config dir, the built CLI with `--all-profiles` in
 * tmux. One list holds both servers' conversations with a SERVER column; an approval goes to the
 * server its row came from; killing one server marks its rows stale while the other's keep
 * updating.
 */

const {configure, launch} = profilesInTmux('e2e-all');

async function twoProfiles(): Promise<{work: Simulator; lab: Simulator}> {
	// The same seed: the same conversation ids on both, told apart only by their server.
	const work = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 12, apiKey: 'work-key'});
	const lab = await startSimulator({port: 0, tickMs: 0, seed: 7, conversations: 8, apiKey: 'lab-key'});
	configure({work, lab}, 'work');
	return {work, lab};
}

/** List rows (after the two-cell selection marker) whose SERVER cell matches. */
const rowsOf = (screen: string, server: RegExp) => screenLines(screen).filter((line) => /^[› ] /.test(line) && server.test(line.slice(2, 10)));

describe('every server at once in tmux', {skip: tmuxSkip}, () => {
	test('120x32: one list with a SERVER column; an approval reaches its own server; one server down marks its rows stale, the other updates', {timeout: 90_000}, async () => {
		const {work, lab} = await twoProfiles();
		const tmux = launch(120, 32, '--all-profiles');
		let screen = await tmux.waitFor((text) => /2 servers │ work .* · lab /.test(text) && rowsOf(text, /^work\b/).length > 0 && rowsOf(text, /^lab\b/).length > 0, 'both servers in one list', 20_000);
		assert.match(screen, /Conversations \(20\)/);
		assert.match(screen, /^ {2}SERVER AGENT/m);
		assertFits(screen, 120);

		// `!` with two servers: each cause group says how many of it each server has.
		tmux.send('!');
		const queue = await tmux.waitFor((text) => text.includes('What needs you, by cause') && /\[(work|lab) \d+( · (work|lab) \d+)?\]/.test(text), 'the cause groups with their servers');
		const approval = screenLines(queue).find((line) => /waiting for approval/i.test(line) || /approv/i.test(line.slice(0, 44))) ?? '';
		assert.match(approval, /\[work 1 · lab 1\]|\[lab 1 · work 1\]/, `the approval group on both servers: ${approval}`);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('What needs you, by cause'), 'the queue closed');

		// The waiting conversation exists on both servers under the same id: approve lab's only.
		const waitingId = normalizeId(work.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!.id);
		tmux.send('/');
		tmux.send('server:lab status:waiting', {literal: true});
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => /1 of 20/.test(text) && rowsOf(text, /^lab\b/).length === 1 && rowsOf(text, /^work\b/).length === 0, 'the filter down to lab\'s waiting row');
		tmux.send('a');
		await tmux.waitFor((text) => /Approve .* on lab\? \[y\/n\]/.test(text) && /1 action · risk/.test(text), 'the question naming the server, with what it approves');
		tmux.send('y');
		await tmux.waitFor((text) => text.includes('Approved '), 'the approval sent', 20_000);
		assert.notEqual(lab.world.findConversation(waitingId)!.executionStatus, 'waiting_for_confirmation', 'approved on lab');
		assert.equal(work.world.findConversation(waitingId)!.executionStatus, 'waiting_for_confirmation', 'work untouched');
		tmux.send('Escape');
		await tmux.waitFor((text) => /Conversations \(20\)/.test(text) && !text.includes(' of 20'), 'the filter cleared');

		// lab goes down: its rows are marked, its health says so; work goes on.
		await lab.close();
		screen = await tmux.waitFor((text) => /lab (! stale|✗ offline)/.test(text) && rowsOf(text, /^! lab\b/).length > 0 && rowsOf(text, /^lab\b/).length === 0, 'lab\'s rows marked stale', 30_000);
		assert.match(screen, /· lab /);
		assert.ok(rowsOf(screen, /^work\b/).length > 0, 'work rows not marked');
		assertFits(screen, 120);
		// A change on work reaches the screen while lab is down.
		work.world.conversationList()[0]!.title = 'Renamed on work while lab is down';
		await tmux.waitFor((text) => rowsOf(text, /^work\b/).some((line) => line.includes('Renamed on work')), 'work still updating', 20_000);

		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('* in a one-profile dashboard switches to every profile; ctrl-p goes back to one', {timeout: 60_000}, async () => {
		await twoProfiles();
		const tmux = launch(100, 28, '--profile work');
		await tmux.waitFor((text) => /Conversations \(12\)/.test(text) && !text.includes('SERVER'), 'one profile, no SERVER column', 20_000);
		tmux.send('*');
		const screen = await tmux.waitFor((text) => /2 servers │/.test(text) && /Conversations \(20\)/.test(text) && text.includes('SERVER'), 'every profile after *', 20_000);
		assertFits(screen, 100);
		tmux.send('C-p');
		await tmux.waitFor((text) => text.includes('Switch to a profile') && text.includes('● every profile at once (2)'), 'the picker with the all-profiles entry');
		tmux.send('Down');
		tmux.send('Enter');
		await tmux.waitFor((text) => /Conversations \(12\)/.test(text) && !text.includes('2 servers'), 'back to work alone', 20_000);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
