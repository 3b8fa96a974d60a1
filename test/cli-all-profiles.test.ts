import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {subAgentTitles} from '../source/simulator/seed-fleet.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {normalizeId} from '../source/wire/ids.js';
import {runCli} from './helpers/built-cli.js';

/**
 * `conversations --all-profiles` against two simulators configured as profiles: every server's
 * conversations once, each row carrying its `profile`; one server down is said by name while the
 * other's rows still print.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-all-profiles-'));
let work: Simulator;
let lab: Simulator;

before(async () => {
	// The same seed: both hold the same ids, and each must still be listed once per server.
	work = await startSimulator({port: 0, tickMs: 0, seed: 8, conversations: 9, apiKey: 'WORK-KEY-0123456789'});
	lab = await startSimulator({port: 0, tickMs: 0, seed: 8, conversations: 5, apiKey: 'LAB-KEY-0123456789'});
	mkdirSync(join(home, 'xdg', 'agent-tui'), {recursive: true});
	writeFileSync(
		join(home, 'xdg', 'agent-tui', 'config.json'),
		JSON.stringify({defaultProfile: 'work', profiles: {work: {baseUrl: work.baseUrl, apiKey: work.apiKey}, lab: {baseUrl: lab.baseUrl, apiKey: lab.apiKey}}}),
		{mode: 0o600},
	);
});
after(async () => {
	await Promise.all([work?.close(), lab?.close()]);
	rmSync(home, {recursive: true, force: true});
});

test('--json lists every server\'s conversations once, each row with its profile; each server asked with its own key', {timeout: 60_000}, async () => {
	work.stats.reset();
	lab.stats.reset();
	const run = await runCli(['conversations', '--all-profiles', '--json'], {home, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	const rows = JSON.parse(run.stdout) as Array<{profile: string; id: string}>;
	assert.equal(rows.length, 14);
	assert.deepEqual(
		rows.filter((row) => row.profile === 'work').map((row) => normalizeId(row.id)).sort(),
		work.world.conversationList().map((conversation) => normalizeId(conversation.id)).sort(),
	);
	assert.equal(rows.filter((row) => row.profile === 'lab').length, 5);
	// Each simulator accepts only its own key: both answered, so each got its own.
	assert.ok(work.stats.requests > 0 && lab.stats.requests > 0);
	assert.ok(!run.stdout.includes('KEY-0123456789') && !run.stderr.includes('KEY-0123456789'), 'no key printed');
});

test('the table has a SERVER column; --status filters across servers', {timeout: 60_000}, async () => {
	const run = await runCli(['conversations', '--all-profiles'], {home, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	const lines = run.stdout.trimEnd().split('\n');
	assert.match(lines[0]!, /^SERVER\s+ID\s+SANDBOX\s+AGENT/);
	assert.equal(lines.filter((line) => line.startsWith('work ')).length, 9);
	assert.equal(lines.filter((line) => line.startsWith('lab ')).length, 5);
	const waiting = await runCli(['conversations', '--all-profiles', '--status', 'waiting_for_confirmation', '--json'], {home, timeoutMs: 30_000});
	const profiles = (JSON.parse(waiting.stdout) as Array<{profile: string; execution_status: string}>).map((row) => `${row.profile}:${row.execution_status}`);
	assert.deepEqual(profiles.sort(), ['lab:waiting_for_confirmation', 'work:waiting_for_confirmation']);
});

test('one server down: the other\'s rows still print, the failure is named, the exit code is the failure\'s', {timeout: 60_000}, async () => {
	const config = join(home, 'xdg', 'agent-tui', 'config.json');
	writeFileSync(config, JSON.stringify({profiles: {work: {baseUrl: work.baseUrl, apiKey: work.apiKey}, gone: {baseUrl: 'http://127.0.0.1:9', apiKey: 'GONE-KEY-0123456789'}}}), {mode: 0o600});
	try {
		const run = await runCli(['conversations', '--all-profiles', '--json', '--timeout', '3s'], {home, timeoutMs: 30_000});
		assert.equal(run.code, 5, run.stderr);
		const rows = JSON.parse(run.stdout) as Array<{profile: string}>;
		assert.equal(rows.length, 9);
		assert.ok(rows.every((row) => row.profile === 'work'));
		assert.match(run.stderr, /agent-tui: profile gone: .*cannot reach 127\.0\.0\.1:9/);
		assert.ok(!run.stderr.includes('GONE-KEY-0123456789'));
	} finally {
		writeFileSync(config, JSON.stringify({defaultProfile: 'work', profiles: {work: {baseUrl: work.baseUrl, apiKey: work.apiKey}, lab: {baseUrl: lab.baseUrl, apiKey: lab.apiKey}}}), {mode: 0o600});
	}
});

test('two profiles for the same server and key: its conversations are listed once, under the first, and the other is named', {timeout: 60_000}, async () => {
	const config = join(home, 'xdg', 'agent-tui', 'config.json');
	const both = {work: {baseUrl: work.baseUrl, apiKey: work.apiKey}, lab: {baseUrl: lab.baseUrl, apiKey: lab.apiKey}};
	writeFileSync(config, JSON.stringify({profiles: {...both, 'work-again': {baseUrl: `${work.baseUrl}/api/v1`, apiKey: work.apiKey}}}), {mode: 0o600});
	try {
		const run = await runCli(['conversations', '--all-profiles', '--json'], {home, timeoutMs: 30_000});
		assert.equal(run.code, 0, run.stderr);
		const rows = JSON.parse(run.stdout) as Array<{profile: string; id: string}>;
		assert.equal(rows.length, 14);
		assert.deepEqual([...new Set(rows.map((row) => row.profile))].sort(), ['lab', 'work']);
		assert.match(run.stderr, /profile work-again is the same server and key as profile work/);
	} finally {
		writeFileSync(config, JSON.stringify({defaultProfile: 'work', profiles: both}), {mode: 0o600});
	}
});

test('the table puts each server\'s sub-agents under their own parent, though two servers hold the same ids', {timeout: 60_000}, async (t) => {
	// The same seed on both: the same conversation ids, parents and children on each server.
	const one = await startSimulator({port: 0, tickMs: 0, seed: 4, fleetShapes: true, apiKey: 'ONE-KEY-0123456789'});
	const two = await startSimulator({port: 0, tickMs: 0, seed: 4, fleetShapes: true, apiKey: 'TWO-KEY-0123456789'});
	const fleetHome = mkdtempSync(join(tmpdir(), 'agent-tui-all-profiles-tree-'));
	t.after(async () => {
		await Promise.all([one.close(), two.close()]);
		rmSync(fleetHome, {recursive: true, force: true});
	});
	mkdirSync(join(fleetHome, 'xdg', 'agent-tui'), {recursive: true});
	writeFileSync(join(fleetHome, 'xdg', 'agent-tui', 'config.json'), JSON.stringify({profiles: {one: {baseUrl: one.baseUrl, apiKey: one.apiKey}, two: {baseUrl: two.baseUrl, apiKey: two.apiKey}}}), {mode: 0o600});
	const run = await runCli(['conversations', '--all-profiles'], {home: fleetHome, timeoutMs: 30_000});
	assert.equal(run.code, 0, run.stderr);
	const lines = run.stdout.trimEnd().split('\n');
	for (const server of ['one', 'two']) {
		const waiting = lines.findIndex((line) => line.startsWith(`${server} `) && line.includes(`└ ${subAgentTitles.waiting}`));
		assert.ok(waiting > 0, run.stdout);
		// Right under its parent, on the same server; its siblings right after it.
		const parent = lines[waiting - 1]!;
		assert.ok(parent.startsWith(`${server} `) && !parent.includes('└ ') && !parent.includes('↳ '), `${server}: the line above its first sub-agent is its parent\n${run.stdout}`);
		assert.ok(lines[waiting + 1]!.startsWith(`${server} `) && lines[waiting + 1]!.includes('└ '), run.stdout);
		assert.ok(lines[waiting + 2]!.startsWith(`${server} `) && lines[waiting + 2]!.includes('└ '), run.stdout);
	}
	assert.equal(lines.filter((line) => line.includes('└ ')).length, 6);
});

test('--all-profiles refuses a server of its own, and commands other than conversations', {timeout: 30_000}, async () => {
	const withUrl = await runCli(['conversations', '--all-profiles', '--base-url', work.baseUrl], {home, timeoutMs: 20_000});
	assert.equal(withUrl.code, 2);
	assert.match(withUrl.stderr, /--base-url cannot be used with --all-profiles/);
	const sandboxes = await runCli(['sandboxes', '--all-profiles'], {home, timeoutMs: 20_000});
	assert.equal(sandboxes.code, 2);
	assert.match(sandboxes.stderr, /--all-profiles cannot be used with sandboxes/);
});
