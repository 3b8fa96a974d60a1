import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {after, before, describe, test} from 'node:test';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {cliCommand, runCli} from './helpers/built-cli.js';
import {tmuxSkip} from './helpers/e2e-dashboard.js';
import {shellQuote, startTmux, type TmuxSession} from './helpers/tmux.js';

/**
 * `agent-tui delete <id>...` against the simulator: it lists what it deletes; in a script (no
 * terminal) it deletes nothing and exits 2 without --yes, deletes the conversations and their
 * sandboxes with it; an unknown id deletes nothing (exit 4); on a terminal it asks y/N.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'agent-tui-delete-'));
let sim: Simulator;
const sessions: TmuxSession[] = [];
before(async () => {
	sim = await startSimulator({port: 0, tickMs: 0, seed: 9, conversations: 6, historyDays: 4});
});
after(async () => {
	for (const session of sessions) session.kill();
	await sim.close();
	rmSync(home, {recursive: true, force: true});
});

const cli = (args: string[]) => runCli([...args, '--base-url', sim.baseUrl], {home, env: {OPENHANDS_API_KEY: sim.apiKey}, timeoutMs: 40_000});
const errored = () => sim.world.conversationList().filter((conversation) => sim.world.findSandbox(conversation.sandboxId)?.status === 'ERROR');

test('without a terminal and without --yes: the list, then exit 2 and nothing deleted; with --yes: deleted, and their sandboxes', {timeout: 60_000}, async () => {
	const [first, second] = errored();
	assert.ok(first && second, 'two ERROR conversations seeded');
	const before = sim.world.conversationList().length;
	const refused = await cli(['delete', first.id, second.id]);
	assert.equal(refused.code, 2, refused.stderr);
	assert.match(refused.stdout, /Will delete 2 conversations and 2 sandboxes:/);
	assert.ok(refused.stdout.includes(first.id) && refused.stdout.includes(second.id));
	assert.match(refused.stderr, /no terminal to ask on: run it again with --yes/);
	assert.equal(sim.world.conversationList().length, before, 'nothing deleted');

	const done = await cli(['delete', first.id, second.id, '--yes']);
	assert.equal(done.code, 0, done.stderr);
	assert.match(done.stdout, /deleted 2 conversations and 2 sandboxes/);
	assert.equal(sim.world.conversationList().length, before - 2);
	assert.equal(sim.world.findConversation(first.id), undefined);
	assert.equal(sim.world.findConversation(second.id), undefined);
	for (const sandboxId of [first.sandboxId, second.sandboxId]) assert.notEqual(sim.world.findSandbox(sandboxId)?.status, 'ERROR', `sandbox ${sandboxId} deleted`);
});

test('an unknown id: exit 4, nothing deleted, not even the known ones given with it', {timeout: 60_000}, async () => {
	const [known] = errored();
	assert.ok(known);
	const before = sim.world.conversationList().length;
	const run = await cli(['delete', known.id, 'f'.repeat(32), '--yes']);
	assert.equal(run.code, 4, run.stderr);
	assert.match(run.stderr, /no conversation with id f{32}/);
	assert.equal(sim.world.conversationList().length, before);
});

test('delete takes at least one id', {timeout: 30_000}, async () => {
	const run = await cli(['delete']);
	assert.equal(run.code, 2);
	assert.match(run.stderr, /delete needs <conversation-id>/);
});

describe('on a terminal', {skip: tmuxSkip}, () => {
	test('it asks y/N: n deletes nothing, y deletes', {timeout: 60_000}, async () => {
		const [target] = errored();
		assert.ok(target);
		const before = sim.world.conversationList().length;
		const command = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`, 'NODE_ENV=production', cliCommand(), 'delete', target.id, '--base-url', shellQuote(sim.baseUrl)].join(' ');
		const ask = (answer: string) => {
			const tmux = startTmux({columns: 120, rows: 20, command: `sh -c ${shellQuote(`${command}; printf 'EXIT=%s\\n' $?; sleep 30`)}`, cwd: root});
			sessions.push(tmux);
			return tmux.waitFor((text) => text.includes('Delete them? [y/N]'), 'the question').then(async (screen) => {
				assert.ok(screen.includes(target.id), 'the list before the question');
				tmux.send(answer, {literal: true});
				tmux.send('Enter');
				return tmux.waitFor((text) => /EXIT=\d/.test(text), 'the exit');
			});
		};
		let screen = await ask('n');
		assert.match(screen, /nothing deleted[\s\S]*EXIT=0/);
		assert.equal(sim.world.conversationList().length, before);
		screen = await ask('y');
		assert.match(screen, /deleted 1 conversation and 1 sandbox[\s\S]*EXIT=0/);
		assert.equal(sim.world.findConversation(target.id), undefined);
		assert.equal(sim.world.conversationList().length, before - 1);
	});
});
