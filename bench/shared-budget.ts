import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {startSimulator} from '../source/simulator/server.js';
import {cliArgs, startCli, testCacheHome} from '../test/helpers/built-cli.js';
import {stopChild} from '../test/helpers/run-process.js';
import {shellQuote, startTmux, type TmuxSession} from '../test/helpers/tmux.js';

/**
 * The manual check of the shared request budget (docs/shared-budget.md), in real time: the
 * simulator with its per-key limit (`--limit` a minute), `--dashboards` dashboards in tmux and
 * `--watchers` `watch --json` processes on one key, for `--minutes`. Every second it reads each
 * dashboard's header (the list's age, "budget shared ×N"); at the end it prints the 429s the
 * simulator answered (and when), the most requests in any minute, and each dashboard's oldest
 * list age. Needs tmux and a built CLI (`npm run build`).
 *
 *   node --import tsx bench/shared-budget.ts --limit 100 --minutes 5 --dashboards 2 --watchers 1
 */

const {values} = parseArgs({
	options: {
		limit: {type: 'string', default: '100'},
		minutes: {type: 'string', default: '5'},
		dashboards: {type: 'string', default: '2'},
		watchers: {type: 'string', default: '1'},
		conversations: {type: 'string', default: '40'},
		/** Print every app-server request (seconds from the start, status, route) to stderr. */
		log: {type: 'boolean', default: false},
	},
});
const limit = Number(values.limit);
const minutes = Number(values.minutes);
const home = mkdtempSync(join(tmpdir(), 'agent-tui-shared-budget-check-'));
const sim = await startSimulator({port: 0, tickMs: 1000, seed: 43, conversations: Number(values.conversations)});
sim.faults.requestsPerWindow({limit, windowMs: 60_000});
const env = {OPENHANDS_API_KEY: sim.apiKey, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: testCacheHome()};
const assignments = Object.entries(env)
	.map(([name, value]) => `${name}=${shellQuote(value)}`)
	.join(' ');

const dashboards: TmuxSession[] = Array.from({length: Number(values.dashboards)}, () => startTmux({columns: 160, rows: 40, command: `env ${assignments} ${[process.execPath, ...cliArgs()].map(shellQuote).join(' ')} --base-url ${sim.baseUrl}`}));
const watchers = Array.from({length: Number(values.watchers)}, () => startCli(['watch', '--json', '--base-url', sim.baseUrl], {home, env}));

const oldest = dashboards.map(() => 0);
const shared = dashboards.map(() => new Set<string>());
const started = Date.now();
const ageSeconds = (header: string): number | null => {
	const match = /(\d+)(s|m) (?:ago|old)/.exec(header);
	return match ? Number(match[1]) * (match[2] === 'm' ? 60 : 1) : null;
};
try {
	while (Date.now() - started < minutes * 60_000) {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		dashboards.forEach((dashboard, index) => {
			const header = dashboard.rawCapture().split('\n')[0] ?? '';
			const age = ageSeconds(header);
			// The first minute's start-up (no list yet) is not an age.
			if (age !== null) oldest[index] = Math.max(oldest[index]!, age);
			const share = /budget shared ×\d+/.exec(header)?.[0];
			if (share) shared[index]!.add(share);
		});
	}
} finally {
	for (const dashboard of dashboards) dashboard.kill();
	await Promise.all(watchers.map((watcher) => stopChild(watcher.child)));
}

const answers = sim.stats.log.filter((entry) => !entry.path.startsWith('/runtime/') && !entry.path.startsWith('/_sim/'));
if (values.log) for (const entry of answers) console.error(`${((entry.at - started) / 1000).toFixed(1)} ${entry.status} ${entry.path.slice(0, 90)}`);
const refused = answers.filter((entry) => entry.status === 429).map((entry) => Math.round((entry.at - started) / 1000));
// Look-ups of listed conversations by id: each client's refresh rounds (one batch every 5 s for a fleet this size).
const lookups = answers.filter((entry) => entry.status === 200 && /\/app-conversations\?ids=/.test(entry.path)).map((entry) => entry.at);
const lookupGaps = lookups.slice(1).map((at, index) => at - lookups[index]!);
// Once the first 429's wait is over (its window ended): what pacing under the learned limit leaves.
const settledFrom = refusedFirst(answers) + 60_000;
const settledGaps = lookups.slice(1).flatMap((at, index) => (lookups[index]! >= settledFrom ? [at - lookups[index]!] : []));
let busiest = 0;
for (let end = 0, start = 0; end < answers.length; end++) {
	while (answers[end]!.at - answers[start]!.at >= 60_000) start++;
	busiest = Math.max(busiest, end - start + 1);
}
console.log(
	JSON.stringify(
		{
			limitPerMinute: limit,
			minutes,
			dashboards: dashboards.length,
			watchers: watchers.length,
			requests: answers.length,
			mostInAnyMinute: busiest,
			refusals: refused.length,
			refusedAtSeconds: refused,
			lookups: lookups.length,
			lookupsIfNeverDelayed: Math.round(((dashboards.length + watchers.length) * minutes * 60_000) / 5000),
			longestGapBetweenLookupsMs: Math.max(0, ...lookupGaps),
			longestGapAMinuteAfterTheFirst429Ms: Number.isFinite(settledFrom) ? Math.max(0, ...settledGaps) : null,
			oldestListAgeSeconds: oldest,
			headerSaid: shared.map((set) => [...set]),
		},
		null,
		1,
	),
);
await sim.close();
rmSync(home, {recursive: true, force: true});

function refusedFirst(list: ReadonlyArray<{status: number | null; at: number}>): number {
	return list.find((entry) => entry.status === 429)?.at ?? Number.POSITIVE_INFINITY;
}
