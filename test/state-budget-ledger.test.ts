import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {emptyLedger, learnFromRateLimit, type Ledger, type LedgerLimits, parseLedger, probeAfterMinutes, reserve, sentInMinute} from '../source/state/budget-ledger.js';
import {budgetFileName, LedgerFile, staleLockMs} from '../source/state/budget-ledger-file.js';
import {SharedBudget} from '../source/state/shared-budget.js';
import {maxInWindow} from './helpers/send-window.js';

/**
 * The shared budget's arithmetic (budget-ledger.ts) on plain data with time passed in, and its
 * file (budget-ledger-file.ts): the lock, a stale lock's takeover, the modes, no key inside.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-ledger-'));
after(() => rmSync(home, {recursive: true, force: true}));

const limits: LedgerLimits = {perSecond: 10, perMinute: 100, minuteMs: 60_000, guardMs: 100};

/**
 * Clients that always want to send (`demand` of them, urgent or not) against one ledger, from
 * `from` for `durationMs`: each asks, waits what it is told, asks again. The send times, by client.
 */
function saturate(ledger: Ledger, clients: Array<{urgent: boolean}>, from: number, durationMs: number, lim = limits): number[][] {
	const next = clients.map(() => from);
	const sent = clients.map(() => [] as number[]);
	for (;;) {
		const index = next.indexOf(Math.min(...next));
		const now = next[index]!;
		if (now >= from + durationMs) return sent;
		const wait = reserve(ledger, {now, weight: 1, urgent: clients[index]!.urgent}, lim);
		if (wait === 0) sent[index]!.push(now);
		// A sender that got its slot asks again a moment later (the next request of its round).
		next[index] = now + (wait === 0 ? 1 : wait);
	}
}

test('many clients against one ledger never exceed any window, and their requests are spread evenly, not burst at the reset', () => {
	const ledger = emptyLedger();
	const sent = saturate(ledger, [{urgent: true}, {urgent: true}, {urgent: false}], 0, 5 * 60_000);
	const all = sent.flat().sort((a, b) => a - b);
	assert.ok(maxInWindow(all, 60_000 + limits.guardMs) <= 100, `${maxInWindow(all, 60_000)} in a minute`);
	assert.ok(maxInWindow(all, 1000 + limits.guardMs) <= 10);
	assert.ok(all.length >= 5 * 90, `nearly all of the limit is used: ${all.length} in five minutes`);
	// Spread: after the first burst, no gap between two requests is much longer than the spacing
	// (about 670 ms at 100/min, a burst of 10). Without the pacing, the window fills in seconds and
	// then nothing goes for most of a minute.
	const gaps = all.slice(20).map((time, index) => time - all[19 + index]!);
	assert.ok(Math.max(...gaps) <= 1400, `longest gap ${Math.max(...gaps)} ms`);
});

test('urgent work goes first: background clients leave a reserve that urgent ones use', () => {
	const ledger = emptyLedger();
	const [urgent, background1, background2] = saturate(ledger, [{urgent: true}, {urgent: false}, {urgent: false}], 0, 3 * 60_000);
	// Alone, background work stops short of the limit: the reserve stays free.
	const alone = saturate(emptyLedger(), [{urgent: false}, {urgent: false}], 0, 3 * 60_000).flat().sort((a, b) => a - b);
	assert.ok(maxInWindow(alone, 60_000) <= 100 - 15, `background alone: ${maxInWindow(alone, 60_000)} a minute`);
	// Positive: urgent work alone may use all of it.
	const urgentAlone = saturate(emptyLedger(), [{urgent: true}], 0, 3 * 60_000)[0]!;
	assert.ok(maxInWindow(urgentAlone, 60_000 + limits.guardMs) >= 98, `urgent alone: ${maxInWindow(urgentAlone, 60_000)} a minute`);
	// Together: the urgent client gets more than either background one.
	assert.ok(urgent!.length > background1!.length && urgent!.length > background2!.length, `urgent ${urgent!.length}, background ${background1!.length} and ${background2!.length}`);
});

test('a 429 that names its limit is taken at its word; one that does not teaches what was sent less a margin; both are obeyed by everyone', () => {
	const named = emptyLedger();
	learnFromRateLimit(named, {retryAfterMs: 30_000, limit: 20, windowMs: 60_000}, 1000, limits);
	assert.deepEqual(named.learned, {limit: 20, windowMs: 60_000, named: true, at: 1000});
	assert.equal(named.backoffUntil, 31_000);
	assert.ok(reserve(named, {now: 2000, weight: 1, urgent: true}, limits) >= 29_000, 'everyone waits out the backoff');

	const inferred = emptyLedger();
	const sent = saturate(inferred, [{urgent: true}], 0, 30_000)[0]!;
	const before = sentInMinute(inferred, 30_000, limits);
	assert.equal(before, sent.length);
	learnFromRateLimit(inferred, {retryAfterMs: 1000}, 30_000, limits);
	assert.equal(inferred.learned?.named, false);
	assert.equal(inferred.learned?.limit, before - Math.max(1, Math.ceil(before * 0.1)), `${before} sent`);
	// A second 429 never raises it.
	learnFromRateLimit(inferred, {retryAfterMs: 1000}, 31_000, limits);
	assert.ok(inferred.learned!.limit <= before - 1);
});

/**
 * A server that counts arrivals in fixed windows of a minute, starting at the first request after
 * the last window ended (as a Redis counter with an expiry does), and says nothing of its limit.
 */
function fixedWindowServer(limit: number) {
	let start = Number.NEGATIVE_INFINITY;
	let count = 0;
	return (now: number): {ok: true} | {ok: false; retryAfterMs: number} => {
		if (now >= start + 60_000) {
			start = now;
			count = 0;
		}
		count++;
		return count <= limit ? {ok: true} : {ok: false, retryAfterMs: Math.floor((start + 60_000 - now) / 1000) * 1000};
	};
}

test('against 20/min that is never named, clients that think 100/min take a 429, learn, and take at most one more in any five minutes', () => {
	const ledger = emptyLedger();
	const server = fixedWindowServer(20);
	const refusedAt: number[] = [];
	const sentAt: number[] = [];
	let now = 0;
	// Three clients with work always waiting, for 30 minutes.
	for (let step = 0; now < 30 * 60_000; step++) {
		const wait = reserve(ledger, {now, weight: 1, urgent: step % 3 !== 2}, limits);
		if (wait > 0) {
			now += wait;
			continue;
		}
		const answer = server(now);
		if (answer.ok) sentAt.push(now);
		else {
			refusedAt.push(now);
			learnFromRateLimit(ledger, {retryAfterMs: answer.retryAfterMs}, now, limits);
		}
		now += 50;
	}
	assert.ok(refusedAt.length >= 1, 'the limit was found');
	// And used: the last ten minutes answered at least 15 a minute.
	const lastTen = sentAt.filter((time) => time >= 20 * 60_000).length;
	assert.ok(lastTen >= 150, `${lastTen} answered in the last ten minutes`);
	for (const at of refusedAt) {
		const inFive = refusedAt.filter((other) => other >= at && other < at + probeAfterMinutes * 60_000);
		assert.ok(inFive.length <= 2, `429s at ${refusedAt.map((time) => Math.round(time / 1000)).join(', ')} s`);
	}
	// Probed upward past 20 now and then, by design: each time a 429 takes it back.
	assert.ok(ledger.learned && ledger.learned.limit <= 25 && ledger.learned.limit >= 15, `learned ${JSON.stringify(ledger.learned)}`);
});

test('an inferred limit is probed upward slowly, and forgotten once back at the configured one', () => {
	const ledger = emptyLedger();
	ledger.learned = {limit: 90, windowMs: 60_000, named: false, at: 0};
	reserve(ledger, {now: probeAfterMinutes * 60_000 - 1, weight: 1, urgent: true}, limits);
	assert.equal(ledger.learned.limit, 90, 'not before the probe period');
	reserve(ledger, {now: probeAfterMinutes * 60_000, weight: 1, urgent: true}, limits);
	assert.equal(ledger.learned?.limit, 94, 'one step: a twentieth');
	reserve(ledger, {now: 3 * probeAfterMinutes * 60_000, weight: 1, urgent: true}, limits);
	assert.equal(ledger.learned, null, 'back at 100: forgotten');
});

test('an unreadable ledger file is an empty ledger, never trusted', () => {
	assert.deepEqual(parseLedger('{"sent": [1, "x", 3], "clients": [{"pid": -1, "beat": 2}, {"pid": 7, "beat": 5}], "learned": {"limit": 0}}'), {
		sent: [1, 3],
		paceAt: 0,
		backoffUntil: 0,
		learned: null,
		clients: [{pid: 7, beat: 5}],
	});
	assert.deepEqual(parseLedger('{"sent": [1'), emptyLedger());
	assert.deepEqual(parseLedger('null'), emptyLedger());
});

test('the lock: a live holder makes an update wait (null); a stale lock or a dead holder is taken over', async () => {
	const dir = join(home, 'locks', 'budget');
	const file = new LedgerFile(dir, 'ledger');
	assert.deepEqual(file.update(() => 1), {value: 1});
	const lock = `${file.path}.lock`;

	// Held by a live process (this one's parent), just now.
	writeFileSync(lock, String(process.ppid));
	assert.equal(file.update(() => 2), null, 'busy: not waited for');
	// The same lock, older than any update takes: its holder hung or died mid-update.
	const past = new Date(Date.now() - staleLockMs - 1000);
	utimesSync(lock, past, past);
	assert.deepEqual(file.update(() => 3), {value: 3});

	// Fresh, but its holder is gone.
	const child = spawn(process.execPath, ['-e', '0']);
	const dead = child.pid!;
	await new Promise((resolve) => child.once('exit', resolve));
	writeFileSync(lock, String(dead));
	assert.deepEqual(file.update(() => 4), {value: 4});
	assert.throws(() => statSync(lock), 'the lock is released after each update');
});

test('the shared budget file: 0600 in a 0700 directory, named by a hash, with no key inside; an unwritable state directory degrades to a private budget, said once', () => {
	const key = 'sk-oh-1234567890abcdef';
	const stateHome = join(home, 'state');
	const shared = new SharedBudget({origin: 'https://app.example', key, limits, env: {XDG_STATE_HOME: stateHome}});
	assert.equal(shared.reserve(1, true), 0);
	const path = shared.path!;
	assert.equal(path, join(stateHome, 'agent-tui', 'budget', budgetFileName('https://app.example', key)));
	assert.equal(statSync(path).mode & 0o777, 0o600);
	assert.equal(statSync(join(stateHome, 'agent-tui', 'budget')).mode & 0o777, 0o700);
	const text = readFileSync(path, 'utf8');
	assert.ok(!text.includes(key) && !path.includes(key));
	assert.notEqual(budgetFileName('https://app.example', key), budgetFileName('https://app.example', `${key}x`), 'another key, another budget');
	assert.notEqual(budgetFileName('https://app.example', key), budgetFileName('https://other.example', key), 'another server, another budget');
	assert.equal(shared.view().shared, true);
	shared.close();
	assert.deepEqual((JSON.parse(readFileSync(path, 'utf8')) as Ledger).clients, [], 'a closed client leaves the ledger');

	// A state directory under a file cannot be created.
	const blocker = join(home, 'not-a-dir');
	writeFileSync(blocker, '');
	const warnings: string[] = [];
	const alone = new SharedBudget({origin: 'https://app.example', key, limits, env: {XDG_STATE_HOME: blocker}, warn: (message) => warnings.push(message)});
	assert.equal(alone.view().shared, false);
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /not shared/);
	assert.ok(!warnings[0]!.includes(key));
	// Still a budget: paced and limited in memory.
	assert.equal(alone.reserve(1, true), 0);
	alone.close();
});

test('two SharedBudgets on one file (as two processes would) see each other\'s requests and clients', () => {
	const env = {XDG_STATE_HOME: join(home, 'state-two')};
	const small: LedgerLimits = {perSecond: 10, perMinute: 6, minuteMs: 60_000, guardMs: 100};
	const a = new SharedBudget({origin: 'https://app.example', key: 'k', limits: small, env});
	const b = new SharedBudget({origin: 'https://app.example', key: 'k', limits: small, env});
	try {
		assert.equal(a.path, b.path);
		let granted = 0;
		for (let index = 0; index < 12; index++) if ((index % 2 === 0 ? a : b).reserve(1, true, 1000) === 0) granted++;
		// The burst of 6/min is 2: what one grants, the other sees.
		assert.equal(granted, 2);
		assert.equal(b.view().requestsLastMinute, 2);
	} finally {
		a.close();
		b.close();
	}
});
