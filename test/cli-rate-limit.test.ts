import assert from 'node:assert/strict';
import {test} from 'node:test';
import {stepConversation} from '../source/simulator/agent-runtime.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {rateLimitWait} from '../source/wire/http.js';
import {cliAgainst, cliHome, longRunner} from './helpers/cli-sim.js';

/**
 * The hosted service rounds its per-second window down, so its 429 says `Retry-After: 0`. That
 * means "after the window", not "now". Against a simulator that allows 2 requests a second and
 * answers like that, a 3-page list and a 25-page history both come through: the client waits
 * out the window and then paces its pages to the limit.
 */

const home = cliHome('rate');

type Run = {code: number | null; stdout: string; stderr: string; ms: number};

async function cli(sim: Simulator, args: string[]): Promise<Run> {
	const started = Date.now();
	const run = await cliAgainst(sim, home, args, {timeoutMs: 90_000});
	return {...run, ms: run.exitedAt - started};
}

test('Retry-After: 0 waits for the window (X-RateLimit-Reset, at least 1 s); a longer Retry-After is kept; the limit sets the spacing', () => {
	const now = 1_700_000_000_300;
	assert.deepEqual(rateLimitWait({'retry-after': '0', 'x-ratelimit-limit': '2', 'x-ratelimit-reset': '1700000001'}, 'Rate limit exceeded: 2 per 1 second', now), {waitMs: 1000, spacingMs: 500});
	assert.equal(rateLimitWait({'retry-after': '0', 'x-ratelimit-reset': '1700000004'}, '', now).waitMs, 3700, 'until the reset');
	assert.equal(rateLimitWait({}, '', now).waitMs, 1000, 'no header: one window');
	assert.deepEqual(rateLimitWait({'retry-after': '0'}, 'Rate limit exceeded: 100 per 1 minute', now), {waitMs: 60_000, spacingMs: 600});
	assert.equal(rateLimitWait({'retry-after': '7'}, '', now).waitMs, 7000, 'a real Retry-After is honoured');
});

// Paced at 2 requests a second by design (about 15 s of requests): a timeout of its own.
test('against 2 requests/s answered with Retry-After: 0, conversations --json (3 pages) and events --json (25 pages) succeed', {timeout: 120_000}, async (t) => {
	const sim = await startSimulator({port: 0, tickMs: 0, seed: 21, conversations: 250});
	t.after(() => sim.close());
	const conversation = longRunner(sim);
	while (sim.world.events(conversation).length <= 2400) stepConversation(sim.world, conversation);
	const total = sim.world.conversationList().length;
	assert.ok(total > 200 && total <= 300, `${total} conversations: three pages of 100`);

	sim.faults.requestsPerSecond(2);
	const list = await cli(sim, ['conversations', '--json']);
	assert.equal(list.code, 0, list.stderr);
	assert.equal((JSON.parse(list.stdout) as unknown[]).length, total);

	const events = await cli(sim, ['events', conversation.id, '--json']);
	assert.equal(events.code, 0, events.stderr);
	const ids = (JSON.parse(events.stdout) as Array<{id: string}>).map((event) => event.id);
	assert.deepEqual(ids, sim.world.events(conversation).map((event) => event.id));
	assert.ok(ids.length > 2400, '25 pages');
	t.diagnostic(`conversations: ${list.ms} ms; events (${ids.length}): ${events.ms} ms`);

	// Positive control: the limiter does refuse a burst.
	const statuses = await Promise.all(Array.from({length: 6}, () => fetch(`${sim.baseUrl}/api/v1/app-conversations/search`, {headers: {authorization: `Bearer ${sim.apiKey}`}}).then((response) => [response.status, response.headers.get('retry-after')])));
	assert.ok(statuses.some(([status, retryAfter]) => status === 429 && retryAfter === '0'), JSON.stringify(statuses));
});
