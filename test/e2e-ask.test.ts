import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {finalResponse} from '../source/simulator/ask-routes.js';
import {normalizeId} from '../source/wire/ids.js';
import {assertFits, dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Ask without disturbing, in a real terminal against the built CLI: `A` on the conversation
 * waiting for approval opens a question box; the answer shows in the panel while the
 * conversation's status and event count stay as they were (on the server and in the list); an
 * answer holding escape sequences shows them as marks. The list's preview shows a running
 * agent's last answer (`agent_final_response`).
 */

// No ticking: nothing changes on the server but what the test does.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 14, askDelayMs: 300});
const selected = (screen: string) => screenLines(screen).find((line) => line.startsWith('› ')) ?? '';

describe('ask in tmux', {skip: tmuxSkip}, () => {
	test('100x30: A asks the waiting agent; the answer shows, its status and history stay the same', {timeout: 60_000}, async () => {
		const {tmux, simulator} = await launch(100, 30);
		const waiting = simulator.world.conversationList().find((conversation) => conversation.scenario === 'confirmation')!;
		await tmux.waitFor((text) => /1 waiting/.test(text), 'the list with the waiting conversation', 20_000);
		tmux.send('/');
		tmux.send('Rebuild release', {literal: true});
		tmux.send('Enter');
		await tmux.waitFor((text) => /1 of 14/.test(text) && /Rebuild release/.test(selected(text)), 'the waiting conversation selected');
		const eventsBefore = simulator.world.events(waiting).length;

		tmux.send('A');
		await tmux.waitFor((text) => text.includes('Ask Rebuild release') && text.includes('question:') && text.includes('its agent stays waiting for confirmation'), 'the question box');
		// Enter with nothing typed: the example is not sent, and the panel says so.
		tmux.send('Enter');
		await tmux.waitFor((text) => text.includes('Nothing typed yet: the example is not sent'), 'the empty Enter said');
		assert.equal(simulator.world.askCount, 0, 'nothing asked');
		tmux.send('what are you blocked on?', {literal: true});
		await tmux.waitFor((text) => text.includes('question: what are you blocked on?'), 'the typed question');
		tmux.send('Enter');
		const screen = await tmux.waitFor((text) => text.includes('blocked on your approval') && text.includes('Its status and history are unchanged'), 'the answer in the panel', 20_000);
		assertFits(screen, 100);
		assert.equal(simulator.world.events(waiting).length, eventsBefore, 'no event recorded');
		assert.equal(simulator.world.findConversation(waiting.id)!.executionStatus, 'waiting_for_confirmation');

		tmux.send('Escape');
		const after = await tmux.waitFor((text) => !text.includes('question:') && /Rebuild release/.test(selected(text)), 'the list again');
		assert.match(selected(after), /waiting/, 'still waiting in the list');
		assert.equal(simulator.world.events(waiting).length, eventsBefore);
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});

	test('an answer with escape sequences shows them as marks; a running agent\'s last answer is in the preview', {timeout: 60_000}, async () => {
		const {tmux, simulator} = await launch(120, 30);
		// A running agent that has answered something (a finish or a message of its own).
		const finished = simulator.world.conversationList().find((conversation) => simulator.world.findSandbox(conversation.sandboxId)?.status === 'RUNNING' && finalResponse(simulator.world.events(conversation)) !== '')!;
		await tmux.waitFor((text) => /Conversations \(14\)/.test(text), 'the list', 20_000);
		tmux.send('/');
		tmux.send(normalizeId(finished.id).slice(0, 8), {literal: true});
		tmux.send('Enter');
		// Selected and on screen: its last answer is read and shown.
		await tmux.waitFor((text) => /1 of 14/.test(text) && text.includes('said: "'), 'the last answer in the preview', 20_000);

		simulator.faults.hostileText(true);
		tmux.send('A');
		await tmux.waitFor((text) => text.includes('question:'), 'the question box');
		tmux.send('anything odd?', {literal: true});
		tmux.send('Enter');
		const screen = await tmux.waitFor((text) => text.includes('Answered.') && /␛|⟨U\+009[BCD]⟩/.test(text.slice(text.lastIndexOf('─') + 1)), 'the hostile answer, sequences as marks', 20_000);
		assertFits(screen, 120);
		// Apart: ESC and q in one read are alt-q.
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('question:'), 'the panel closed');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
