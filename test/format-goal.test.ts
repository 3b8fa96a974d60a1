import {test} from 'node:test';
import assert from 'node:assert/strict';
import {eventDetails} from '../source/format/event-details.js';
import {eventSummary} from '../source/format/event-summary.js';
import {goalShort} from '../source/format/goal.js';
import {latestGoal} from '../source/state/timeline-session.js';
import {readGoal} from '../source/wire/goal.js';
import {parseEventLater} from '../source/wire/schemas/events.js';
import {stateUpdate, terminalAction} from './helpers/event-fixtures.js';

/**
 * The goal loop's state (issue 21.8): the `goal` key of a state update, `{active, status,
 * iteration, max_iterations, objective, verdict}` (SDK conversation/goal/controller.py GoalStatus).
 */

const objective = 'Every day of November 2025 is loaded and verified';
const goal = (fields: Record<string, unknown>) => ({active: true, status: 'running', iteration: 3, max_iterations: 10, objective, ...fields});

test('a goal update reads as its progress and objective; details give the judge\'s verdict', () => {
	const running = stateUpdate('goal', goal({verdict: null}));
	assert.deepEqual([eventSummary(running).text, eventSummary(running).tone], [`goal 3/10 running · ${objective}`, 'normal']);
	const capped = stateUpdate('goal', goal({active: false, status: 'capped', iteration: 10, verdict: {score: 0.62, complete: false, missing: 'Nov 29 and 30 are not verified.'}}));
	assert.deepEqual([eventSummary(capped).text, eventSummary(capped).tone], [`goal 10/10 capped · ${objective}`, 'warn']);
	const doc = eventDetails(capped, 100);
	const lines = doc.lines(0, doc.lineCount).map((line) => line.text);
	for (const pattern of [/^goal +capped$/, /^iteration +10 of 10$/, /^objective +Every day/, /^verdict +not complete · score 0\.62$/, /^missing +Nov 29 and 30/]) {
		assert.ok(lines.some((line) => pattern.test(line)), `${pattern}\n${lines.join('\n')}`);
	}
	// The goal was cleared: the value became None and arrives without one.
	assert.equal(eventSummary(stateUpdate('goal', undefined)).text, 'goal cleared');
	assert.equal(goalShort(readGoal(goal({}))!), 'goal 3/10');
	assert.equal(goalShort(readGoal(goal({status: 'complete', iteration: 4}))!), 'goal ✓ 4/10');
	// A status a newer server invents is kept as sent; an odd shape is no goal, never a crash.
	assert.equal(goalShort(readGoal(goal({status: 'paused_by_judge'}))!), 'goal paused_by_judge 3/10');
	assert.equal(readGoal('running'), null);
	assert.doesNotMatch(eventSummary(stateUpdate('goal', goal({objective: 'x\u001b]0;pwned\u0007'}))).text, /\u001b|\u0007/);
});

test('the newest goal in a log, from pending events, without validating the others', () => {
	const events = [
		parseEventLater({kind: 'ConversationStateUpdateEvent', id: 'g1', timestamp: '2026-11-22T10:00:01', source: 'environment', key: 'goal', value: goal({iteration: 1})}),
		terminalAction('ls'),
		parseEventLater({kind: 'ConversationStateUpdateEvent', id: 'g2', timestamp: '2026-11-22T10:00:03', source: 'environment', key: 'goal', value: goal({iteration: 2})}),
		parseEventLater({kind: 'ConversationStateUpdateEvent', id: 's', timestamp: '2026-11-22T10:00:04', source: 'environment', key: 'stats', value: {}}),
	];
	assert.equal(latestGoal(events)?.iteration, 2);
	assert.equal(latestGoal(events.slice(1, 2)), null);
	// Only goal updates were validated on the way.
	assert.equal(events[3]!.kind, 'PendingEvent');
});
