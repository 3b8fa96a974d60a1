import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {condense} from './condense.js';
import {clientTool, consultTom, delegate, goalUpdate, invokeSkill, subAgentTask, switchLlm, visionInspect} from './newer-tools.js';
import {browse, planTasks, terminal, think} from './tools.js';
import type {Script, ScriptContext, Step} from './types.js';

export const longRunnerTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Backfill November analytics events',
		repository: 'datacorp/analytics-backfill',
		branch: 'main',
		request:
			'Backfill the warehouse events table day by day with scripts/backfill_events.py, verify each day against the source counts, and keep going until every day is loaded. Report anomalies as you go.',
	},
];

const objective = 'Every day of November 2025 is loaded into analytics.events and verified against the source counts';
const maxIterations = 10;

/**
 * `12,345`, as `toLocaleString('en-US')` writes it, without ICU: the demo's first list builds this
 * agent, and a process's first Intl number format costs ~20 ms of its first frame.
 */
function groupedDigits(count: number): string {
	return String(count).replaceAll(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * Never finishes: a steady stream of realistic work for follow mode and long sessions. It runs as
 * a goal loop (the `goal` state: an audit round every few batches) and uses the 2026 tools in
 * turn: sub-agents (task, delegate), skills, a switch of LLM profile, a vision check of the
 * dashboard, a client tool and a tool kind no client knows (newer-tools.ts).
 */
export function* longRunnerScript(context: ScriptContext): Script {
	yield* openScenario(context, longRunnerTemplates);
	yield goalUpdate(context, {active: true, status: 'running', iteration: 0, max_iterations: maxIterations, objective});
	yield* planTasks(
		context,
		[
			{title: 'Backfill each day with scripts/backfill_events.py', status: 'in_progress'},
			{title: 'Verify row counts against the source', status: 'todo'},
			{title: 'Report anomalies', status: 'todo'},
		],
		'Plan the backfill loop',
	);
	for (let batch = 1; ; batch++) {
		const day = `2025-11-${String(((batch - 1) % 30) + 1).padStart(2, '0')}`;
		const rows = context.rng.int(410_000, 980_000);
		const seconds = context.rng.int(40, 190);
		yield* terminal(context, {
			command: `python scripts/backfill_events.py --date ${day} --batch-size 5000`,
			output: `[${day}] reading source partitions... 24 files
[${day}] loaded ${groupedDigits(rows)} events in ${Math.ceil(rows / 5000)} batches
[${day}] upserted into analytics.events (${seconds}s)`,
			summary: `Backfill events for ${day}`,
			thought: batch === 1 ? 'Start with the first day and check the numbers before speeding up.' : undefined,
		});
		if (batch % 3 === 0) {
			const drift = context.rng.chance(0.3) ? context.rng.int(1, 40) : 0;
			yield* terminal(context, {
				command: `psql "$WAREHOUSE_URL" -Atc "select count(*) from analytics.events where event_date = '${day}'"`,
				output: String(rows - drift),
				summary: `Verify the row count for ${day}`,
			});
			if (drift > 0) yield* think(context, `${day} is short by ${drift} rows; probably late-arriving events in the last source partition. Note it and re-run that day at the end.`);
		}
		if (batch % 5 === 0) {
			yield* browse(
				context,
				'http://localhost:3000/d/backfill/analytics-backfill?orgId=1',
				`Navigated to http://localhost:3000/d/backfill/analytics-backfill?orgId=1\nTitle: Analytics backfill · Grafana\n\nRows per day (last 7): steady\nIngest lag: ${context.rng.int(2, 9)} min\nErrors (1h): 0`,
				'Check the backfill dashboard',
			);
		}
		if (batch % 4 === 0) {
			const responseId = context.ev.responseId();
			yield {events: [context.ev.completionLog(context.model, responseId, 30_000 + batch * 200, 300, `backfill ${day}`)]};
		}
		if (batch % 7 === 0) yield {events: [context.ev.tokens(32, 16)]};
		if (batch % 12 === 0) {
			yield* condense(context, `Backfilling analytics.events day by day. Completed through ${day}; counts verified every third day, minor late-arrival drift noted. Next: continue with the following day.`);
		}
		if (batch % 2 === 0) yield* toolTour(context, batch / 2 - 1, day);
		if (batch % 6 === 0 && batch / 6 < maxIterations) {
			const iteration = batch / 6;
			yield goalUpdate(context, {active: true, status: 'running', iteration, max_iterations: maxIterations, objective, verdict: {score: Math.min(0.95, iteration / maxIterations), complete: false, missing: `Days after ${day} are not loaded yet.`}});
		}
		if (batch === 4) yield checkpoint;
	}
}

/** One of the newer tools, in turn (`turn` counts from 0). */
function* toolTour(context: ScriptContext, turn: number, day: string): Generator<Step, void, undefined> {
	switch (turn % 8) {
		case 0: {
			yield* subAgentTask(context, {
				description: 'Check late-arriving partitions',
				prompt: `List the source partitions for ${day} that arrived after the nightly cut-off and how many events each holds.`,
				subagentType: 'explore',
				result: `2 late partitions for ${day}: part-0022 (1,204 events), part-0023 (87 events).`,
			});
			return;
		}

		case 1: {
			yield* delegate(context, {command: 'spawn', ids: ['verify', 'report'], agentTypes: ['programmer', 'researcher']}, 'Spawned 2 sub-agents: verify (programmer), report (researcher).');
			return;
		}

		case 2: {
			yield* delegate(context, {command: 'delegate', tasks: {verify: `Re-count ${day} in the warehouse and the source.`, report: 'Summarise the anomalies found so far.'}}, 'verify: counts match.\nreport: 3 days short by fewer than 40 rows, all late partitions.');
			return;
		}

		case 3: {
			yield* invokeSkill(context, 'warehouse-sql', '# Warehouse SQL\nUse `psql "$WAREHOUSE_URL" -Atc` for counts; never run DELETE without a date filter.');
			return;
		}

		case 4: {
			yield* switchLlm(context, 'fast-cheap', 'The remaining days are the same mechanical step; a cheaper model is enough.', 'litellm_proxy/gpt-5-mini-2025-08-07');
			return;
		}

		case 5: {
			yield* visionInspect(context, {imageIndex: 0, question: 'Does the ingest lag panel show any spike above 10 minutes?', answer: 'No: the ingest lag stays between 2 and 9 minutes.', model: 'litellm_proxy/claude-sonnet-4-5-20250929'});
			return;
		}

		case 6: {
			yield* clientTool(context, 'notify_channel', {channel: '#data-eng', text: `Backfill reached ${day}.`}, 'Tell the team how far the backfill is');
			return;
		}

		default: {
			yield* consultTom(context, 'The user asked to "report anomalies": unclear whether small drifts count.', 'Report drifts above 0.01% only; list smaller ones in the final summary.');
		}
	}
}
