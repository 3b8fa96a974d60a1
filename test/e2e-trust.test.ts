import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {parseClockOffset} from '../source/simulator/clock.js';
import {AppClient} from '../source/wire/app-client.js';
import {createRequestFor} from '../source/wire/schemas/create-request.js';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';
import {eventually} from './helpers/eventually.js';

/**
 * Triage you can trust, in a real terminal (tmux) against a simulator whose clock runs three
 * weeks behind ours, as the real service's can: a conversation started a moment ago is minutes
 * old, not weeks; `a` shows what it would approve and does nothing on `n`; pausing the sandbox of
 * an errored conversation keeps it counted and marked as its last known status.
 */

const skip = tmuxSkip;

// No ticking: statuses stay where the test puts them.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30, sandboxTransitionMs: 150, startTaskPhaseMs: 20, clockOffsetMs: parseClockOffset('-21d')!});

const lines = screenLines;
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';
const needYou = (screen: string) => Number(/! (\d+) need you/.exec(lines(screen)[0] ?? '')?.[1] ?? Number.NaN);

const fits = assertFits;

describe('trust end to end in tmux, the server three weeks behind', {skip, concurrency: 2}, () => {
	test('80x24: a just-started conversation is under 2 minutes old; a on a waiting row shows the command and risk, n does nothing', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launch(80, 24);
		let screen = await tmux.waitFor((text) => /need you/.test(text) && text.includes('AGENT'), 'the list', 30_000);
		// At 80 columns the header keeps the need-you count and says the server's clock is off.
		screen = await tmux.waitFor((text) => /! \d+ need you · ⏱ server clock 21d behind/.test(lines(text)[0] ?? ''), 'the header');
		fits(screen, 80);
		// Nothing is "quiet" for weeks: our clock is not the server's.
		assert.doesNotMatch(screen, /quiet \d+d/);

		const app = new AppClient({baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, maxRetries: 0});
		await app.createConversation(createRequestFor({message: 'Zebra health check endpoint'}));
		await app.close();
		const deadline = Date.now() + 20_000;
		while (!simulator.world.conversationList().some((conversation) => conversation.title.startsWith('Zebra')) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		// Conversations started elsewhere come with the next walk of the list: ctrl-r walks it now.
		tmux.send('C-r');
		tmux.send('/');
		await tmux.waitFor((text) => text.includes(' of '), 'the filter line');
		tmux.send('Zebra', {literal: true});
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => lines(text).some((line) => line.includes('Zebra health')), 'the started conversation', 30_000);
		const row = lines(screen).find((line) => line.includes('Zebra health')) ?? '';
		// AGE is the first column after the title at 80 columns.
		const age = /Zebra health[^│]*?\s(\d+)([smhd])\s+\S+/.exec(row);
		assert.ok(age, `an age on the row: ${row}`);
		const [, amount, unit] = age;
		assert.ok(unit === 's' || (unit === 'm' && Number(amount) < 2), `a just-started conversation is under 2 minutes old, not ${amount}${unit}: ${row}`);
		// The waiting conversation, by the filter on the AGENT column; a asks with the command and its risk.
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('esc clears'), 'the filter cleared');
		tmux.send('/');
		await tmux.waitFor((text) => text.includes(' of 31'), 'the filter line again');
		tmux.send('status:waiting', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => /approve\?/.test(selected(text)) && text.includes('esc clears'), 'the waiting conversation selected');
		const waiting = simulator.world.conversationList().find((conversation) => conversation.executionStatus === 'waiting_for_confirmation');
		assert.ok(waiting, 'the simulator has a conversation waiting for confirmation');
		tmux.send('a');
		screen = await tmux.waitFor((text) => /\[y\/n\]/.test(text) && /risk: /.test(text), 'the question with the pending actions', 20_000);
		fits(screen, 80);
		assert.match(screen, /Approve .*pending action.* of .*\? \[y\/n\]/);
		assert.match(screen, /^ {2}(HIGH|MEDIUM|LOW|UNKNOWN) +\S+ +\S/m, 'each action: its risk, its tool, its command or arguments');
		assert.match(screen, /\d+ actions? · risk: \d+ (HIGH|MEDIUM|LOW|UNKNOWN)/);
		tmux.send('n');
		await tmux.waitFor((text) => text.includes('Cancelled: nothing approved.') && !/\[y\/n\]/.test(text), 'n cancels');
		// A key after n, answered: ctrl-r walks the list now. Keys are handled in order, so an
		// approval that n sent would have left before this walk's first page was answered.
		const searches = () => simulator.stats.log.filter((entry) => entry.key === 'GET /api/v1/app-conversations/search' && entry.endedAt !== null).length;
		const searchesBefore = searches();
		tmux.send('C-r');
		await eventually(searches, 'the walk after n answered', {timeoutMs: 20_000, until: (count) => count > searchesBefore});
		assert.deepEqual(simulator.stats.log.filter((entry) => entry.path.includes('respond_to_confirmation')).map((entry) => entry.path), [], 'no approval request');
		assert.equal(waiting.executionStatus, 'waiting_for_confirmation', 'n approved nothing');
		// The positive half: asked again, y approves it.
		tmux.send('a');
		await tmux.waitFor((text) => /\[y\/n\]/.test(text) && /risk: /.test(text), 'asked again', 20_000);
		tmux.send('y');
		await tmux.waitFor((text) => text.includes('Approved '), 'the approval sent', 20_000);
		assert.notEqual(waiting.executionStatus, 'waiting_for_confirmation', 'y approved it');
		assert.equal(simulator.stats.log.filter((entry) => entry.path.includes('respond_to_confirmation')).length, 1, 'y sent the one approval (the request the check above looks for)');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('160x48: pausing the sandbox of an errored conversation keeps it counted and marked last known error', {timeout: 90_000}, async () => {
		const {tmux, simulator} = await launch(160, 48);
		const errored = simulator.world
			.conversationList()
			.find((conversation) => simulator.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING' && (simulator.world.agent(conversation), conversation.executionStatus === 'error'));
		assert.ok(errored, 'the simulator has an errored conversation in a running sandbox');
		const title = errored.title.slice(0, 12);
		// The sandbox list too: p acts on a sandbox the dashboard knows.
		let screen = await tmux.waitFor((text) => /need you/.test(text) && text.includes(title) && /Sandboxes \(30\)/.test(text), 'the lists', 30_000);
		fits(screen, 160);
		assert.match(screen, /⏱ server clock 21d behind/);
		const before = needYou(screen);
		assert.ok(before > 0, lines(screen)[0]);
		tmux.send('/');
		await tmux.waitFor((text) => text.includes(' of '), 'the filter line');
		tmux.send('status:error', {literal: true});
		tmux.send('Enter');
		// The filter applied (its field closed) before the next key, so p is a key, not text.
		screen = await tmux.waitFor((text) => selected(text).includes(title) && text.includes('esc clears'), 'the errored conversation selected', 20_000);
		assert.match(selected(screen), /✗ error +● running/);
		tmux.send('p');
		await tmux.waitFor((text) => /Pause sandbox .*\[y\/n\]/.test(text), 'the pause question');
		tmux.send('y');
		screen = await tmux.waitFor((text) => /✗ was error +□ paused/.test(selected(text)), 'the row keeps its last known agent status beside its paused sandbox', 30_000);
		fits(screen, 160);
		// Its badge: the error, or where the row is narrow the kind of failure alone (the AGENT column says error).
		assert.match(selected(screen), /! (error\b|(auth|quota|rate limit|config|transient|agent action|internal|unknown)\b)/, 'still needs you');
		assert.equal(needYou(screen), before, `the need-you count is unchanged: ${lines(screen)[0]}`);
		assert.equal(simulator.world.findSandbox(errored.sandboxId)?.status, 'PAUSED');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
