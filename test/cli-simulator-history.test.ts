import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {parseDuration} from '../source/commands/detection-flags.js';
import {fleetDelete, type DeleteConversations} from '../source/state/delete-plan.js';
import {runCli, startCli, type RunningCli} from './helpers/built-cli.js';
import {eventually} from './helpers/eventually.js';
import {stopChild} from './helpers/run-process.js';

/**
 * `agent-tui simulator --history 30d` seeds a month of ended conversations (three a day); a bad
 * value is a usage error. `--dead-after 7d` reads days. The all-servers delete runs one server
 * after the other, never two at once.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-history-'));
const running: RunningCli[] = [];
after(async () => {
	for (const cli of running) await stopChild(cli.child);
	rmSync(home, {recursive: true, force: true});
});

test('simulator --history 30d: 90 more conversations than without, over the last 30 days', {timeout: 60_000}, async () => {
	const count = async (args: string[]) => {
		const cli = startCli(['simulator', '--port', '0', '--seed', '3', ...args], {home});
		running.push(cli);
		// Both lines: they are written apart, and the second can come a moment after the first.
		const found = await eventually(() => /listening on (http:\/\/\S+)\nAPI key: (\S+)\n/.exec(cli.stdout), 'the simulator listening, with its key', {timeoutMs: 20_000});
		const [, url, key] = found!;
		const answer = await fetch(`${url}/api/v1/app-conversations/count`, {headers: {authorization: `Bearer ${key}`}});
		const total = Number(await answer.text());
		await stopChild(cli.child);
		return total;
	};
	const without = await count([]);
	const withHistory = await count(['--history', '30d']);
	assert.equal(withHistory - without, 90);
	const refused = await runCli(['simulator', '--history', 'a month'], {home, timeoutMs: 20_000});
	assert.equal(refused.code, 2);
	assert.match(refused.stderr, /--history takes a number of days/);
});

test('--dead-after reads days', () => {
	assert.equal(parseDuration('7d', '--dead-after'), 7 * 86_400_000);
	assert.equal(parseDuration('36h', '--dead-after'), 36 * 3_600_000);
});

test('the all-servers delete: one server at a time, in turn', async () => {
	const log: string[] = [];
	let inFlight = 0;
	const member = (name: string): {name: string; controller: {deleteConversations: DeleteConversations}} => ({
		name,
		controller: {
			deleteConversations: async (keys) => {
				inFlight++;
				log.push(`${name} start ${inFlight}`);
				await new Promise((resolve) => setImmediate(resolve));
				log.push(`${name} end`);
				inFlight--;
				return {deleted: [...keys], sandboxesDeleted: [], dropped: [], failed: []};
			},
		},
	});
	const a = member('a');
	const b = member('b');
	const run = fleetDelete(a.controller, () => new Map([[a, ['1', '2']], [b, ['3']]])).deleteConversations!;
	const outcome = await run(['1@a', '2@a', '3@b']);
	assert.deepEqual(log, ['a start 1', 'a end', 'b start 1', 'b end']);
	assert.deepEqual(outcome.deleted, ['1', '2', '3']);
});
