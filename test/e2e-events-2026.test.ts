import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {Simulator} from '../source/simulator/server.js';
import type {ScenarioName} from '../source/simulator/world-types.js';
import type {TmuxSession} from './helpers/tmux.js';
import {assertFits, dashboardLauncher, screenLines, timelineLoaded, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * The 2026 shapes as a person meets them (issue 21), in a real terminal (tmux) running the built
 * CLI against a simulator in this process: the agent looping on one invalid call is flagged
 * repeating (4 times), its calls read as invalid calls of their tool; a command the terminal
 * refused reads as an error, not "still running"; an apply_patch row names its files and lines;
 * a crashed agent's row says why; the long-runner's goal loop is in the timeline's header.
 */

// No ticking: the test moves the agents itself (step), so what is on screen is what it expects.
const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 30});

const lines = screenLines;
const selected = (screen: string) => lines(screen).find((line) => line.startsWith('› ')) ?? '';

function live(simulator: Simulator, scenario: ScenarioName) {
	const conversation = simulator.world.conversationList().find((row) => row.scenario === scenario && simulator.world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	assert.ok(conversation, `a live ${scenario} conversation`);
	return conversation;
}

/** From the list: filter on a distinctive part of the title, open the one row left, wait for its timeline. */
async function open(tmux: TmuxSession, title: string): Promise<void> {
	tmux.send('1');
	await tmux.waitFor((text) => text.includes('[1 Conversations'), 'the list');
	tmux.send('/');
	// The filter line says how many rows pass (`30 of 30`); typing before it is open would be keys.
	await tmux.waitFor((text) => /\d+ of \d+/.test(text), 'the filter line');
	tmux.send(title, {literal: true});
	// Attention first: the live one is the top row (older runs of the same task follow it).
	await tmux.waitFor((text) => text.includes(`/ ${title}`) && selected(text).includes(title.slice(0, 12)), `"${title}" at the top under the filter`);
	tmux.send('Enter');
	await tmux.waitFor((text) => text.includes('esc clears'), 'the filter kept');
	tmux.send('Enter');
	await tmux.waitFor((text) => timelineLoaded(text) && text.includes(`[3 Timeline: ${title.slice(0, 12)}`), `the timeline of "${title}" with its history`);
}

/** The timeline filter line: type, wait for it to show, keep it. */
async function filterTimeline(tmux: TmuxSession, filter: string): Promise<string> {
	tmux.send('/');
	await tmux.waitFor((text) => text.includes('kind:ActionEvent source:agent pytest') || text.includes('match'), 'the timeline filter line');
	tmux.send(filter, {literal: true});
	await tmux.waitFor((text) => text.includes(`/ ${filter}`), 'the typed filter');
	tmux.send('Enter');
	return tmux.waitFor((text) => text.includes(`/ ${filter}`) && !text.includes('enter keep'), `the timeline filtered on ${filter}`);
}

describe('the 2026 shapes end to end in tmux', {skip: tmuxSkip}, () => {
	test('120x36: repeating invalid calls, a refused command, an apply_patch row, an error with its cause, a goal', {timeout: 120_000}, async () => {
		const columns = 120;
		const {tmux, simulator} = await launch(columns, 36);
		// The live agents run on past their start: the refused command, the GPT-5 run's patches, goal rounds.
		simulator.world.step(60);
		const stuck = live(simulator, 'stuck');
		const agentError = live(simulator, 'agent-error');
		const coding = live(simulator, 'coding');
		const runner = live(simulator, 'long-runner');
		assert.match(coding.llmModel, /gpt-5/, 'the first live coding run uses the GPT-5 preset (apply_patch)');
		await tmux.waitFor((text) => text.includes('Conversations (') && /\d+ stuck/.test(text), 'the list');

		// The agent stuck on one invalid call: four rows naming the tool as an invalid call, and flagged repeating.
		await open(tmux, stuck.title.slice(0, 24));
		let screen = await tmux.waitFor((text) => lines(text).filter((line) => / invalid call · \{/.test(line)).length >= 4, 'four invalid calls in the timeline');
		assertFits(screen, columns);
		const invalidRows = lines(screen).filter((line) => / invalid call · \{/.test(line));
		assert.equal(new Set(invalidRows.map((line) => line.replace(/^.*? invalid call · /, ''))).size, 1, `the same call each time:\n${invalidRows.join('\n')}`);
		assert.ok(!/unknown: ActionEvent/.test(screen), 'no invalid call is an unknown event');
		tmux.send('1');
		screen = await tmux.waitFor((text) => /repeated the same \w+ call 4 times/.test(text), 'the preview says it repeats (4 times)');
		assert.match(selected(screen), /stuck/);

		// The refused command: an error, with the terminal's reason, never "still running".
		await open(tmux, agentError.title.slice(0, 24));
		await filterTimeline(tmux, 'kind:ObservationEvent multiple');
		screen = await tmux.waitFor((text) => lines(text).some((line) => /Cannot execute multiple commands/.test(line)), 'the refused command\'s row');
		const refused = lines(screen).find((line) => /Cannot execute multiple commands/.test(line))!;
		assert.match(refused, /\berror · \d+ lines · Cannot execute multiple commands at once\./);
		assert.doesNotMatch(screen, /still running/);

		// An apply_patch row names its file and the lines it adds and removes.
		await open(tmux, coding.title.slice(0, 24));
		await filterTimeline(tmux, 'kind:ActionEvent apply_patch');
		const isPatchRow = (line: string) => / patch \S+\.\w+ \+\d+ -\d+/.test(line) || / patch \d+ files \+\d+ -\d+: /.test(line);
		await tmux.waitFor((text) => lines(text).some(isPatchRow), 'an apply_patch row with its file and lines');

		// The long-runner's goal loop, beside its status in the header.
		await open(tmux, runner.title.slice(0, 24));
		screen = await tmux.waitFor((text) => /goal \d+\/10 running/.test(text), 'the goal in the timeline header');
		assertFits(screen, columns);

		// The crashed agent's row says why (its classification), in the list.
		tmux.send('1');
		await tmux.waitFor((text) => text.includes('[1 Conversations'), 'the list');
		tmux.send('Escape');
		screen = await tmux.waitFor((text) => /! (error \S* ?· )?(config|auth|transient|rate limit|quota|internal)/.test(text), 'an error row with its cause');
		assertFits(screen, columns);

		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'the dashboard exited');
	});
});
