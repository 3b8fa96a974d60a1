import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {assertFits, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';
import {profilesInTmux} from './helpers/e2e-profiles.js';

/**
 * The dead group over three servers at once: three simulators with history, configured as three
 * profiles, the dashboard with `--all-profiles`. The `!` queue's dead line counts every server's
 * old ERROR/MISSING conversations (and says how many each), `D` deletes exactly those, each on
 * its own server, one server at a time; nothing else is touched.
 */

const {configure, launch} = profilesInTmux('e2e-dead');

const weekMs = 7 * 86_400_000;
const names = ['work', 'lab', 'home'] as const;

function oldDead(simulator: Simulator): string[] {
	const now = simulator.world.now();
	return simulator.world
		.conversationList()
		.filter((conversation) => ['ERROR', 'MISSING'].includes(simulator.world.findSandbox(conversation.sandboxId)?.status ?? 'MISSING') && conversation.updatedAt <= now - weekMs)
		.map((conversation) => conversation.id);
}

describe('the dead group over three profiles in tmux', {skip: tmuxSkip}, () => {
	test('120x32: one dead line for three servers, counted per server; D deletes exactly those on each', {timeout: 120_000}, async () => {
		// Different seeds and histories: each server holds its own number of dead.
		const servers = await Promise.all(names.map((name, index) => startSimulator({port: 0, tickMs: 0, seed: 11 + index, conversations: 8, historyDays: 9 + index * 2, apiKey: `${name}-key`})));
		configure(Object.fromEntries(names.map((name, index) => [name, servers[index]!])), 'work');
		const dead = servers.map(oldDead);
		const total = dead.reduce((sum, ids) => sum + ids.length, 0);
		assert.ok(dead.every((ids) => ids.length > 0) && new Set(dead.map((ids) => ids.length)).size > 1, `dead per server: ${dead.map((ids) => ids.length).join(', ')}`);
		const before = servers.map((server) => server.world.conversationList().length);

		const tmux = launch(120, 32, '--all-profiles');
		await tmux.waitFor((text) => /3 servers │/.test(text) && text.includes('Conversations ('), 'three servers in one list', 30_000);
		tmux.send('!');
		// Said per server, by name.
		const perServer = names
			.map((name, index) => `${name} ${dead[index]!.length}`)
			.sort()
			.join(', ');
		let screen = await tmux.waitFor((text) => text.includes(`☠ ${total} dead (ERROR/MISSING, unchanged 7d+) · ${perServer} — D to clear`), `${total} dead (${perServer})`, 60_000);
		assertFits(screen, 120);

		tmux.send('D');
		screen = await tmux.waitFor((text) => text.includes(`Delete ${total} dead conversations`), 'the preview');
		assert.ok(screenLines(screen).some((line) => /^ {2}(work|lab|home) · (ERROR|MISSING) · \d+d · /.test(line)), 'each line names its server');
		assert.deepEqual(servers.map((server) => server.world.conversationList().length), before, 'nothing deleted before the count');
		tmux.send(String(total), {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => new RegExp(`${total} deleted \\(\\d+ sandbox(es)?\\) · 0 left out · 0 failed · enter/esc closes`).test(text), 'every one deleted', 90_000);
		servers.forEach((server, index) => {
			const left = new Set(server.world.conversationList().map((conversation) => conversation.id));
			assert.equal(left.size, before[index]! - dead[index]!.length, `${names[index]}: exactly its dead are gone`);
			for (const id of dead[index]!) assert.ok(!left.has(id), `${names[index]}: ${id} deleted`);
		});
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('dead conversations and the sandboxes'), 'the panel closed');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
