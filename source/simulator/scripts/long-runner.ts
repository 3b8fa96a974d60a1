import {checkpoint, openingStep, pickTemplate, type ScenarioTemplate} from './opening.js';
import {condense} from './condense.js';
import {browse, planTasks, terminal, think} from './tools.js';
import type {Script, ScriptContext} from './types.js';

export const longRunnerTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Backfill November analytics events',
		repository: 'datacorp/analytics-backfill',
		branch: 'main',
		request:
			'Backfill the warehouse events table day by day with scripts/backfill_events.py, verify each day against the source counts, and keep going until every day is loaded. Report anomalies as you go.',
	},
];

/** Never finishes: a steady stream of realistic work for follow mode and long sessions. */
export function* longRunnerScript(context: ScriptContext): Script {
	const template = pickTemplate(longRunnerTemplates, context.template);
	yield openingStep(context, template.request);
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
[${day}] loaded ${rows.toLocaleString('en-US')} events in ${Math.ceil(rows / 5000)} batches
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
		if (batch === 4) yield checkpoint;
	}
}
