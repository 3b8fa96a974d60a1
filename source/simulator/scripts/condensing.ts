import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {condense} from './condense.js';
import {agentText, finish, planTasks, replaceInFile, terminal, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';

export const condensingTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Replace print debugging with structured logging in the ETL jobs',
		repository: 'datacorp/etl-pipelines',
		branch: 'main',
		request:
			'Every job under jobs/ uses print() for progress output. Replace them with the shared logger from etl.logging (structured fields, no f-strings in messages) and keep `pytest -q` green.',
	},
];

const modules = ['orders', 'customers', 'inventory', 'shipments', 'refunds', 'invoices', 'suppliers', 'returns', 'payouts', 'fx_rates'];

function jobSource(name: string): string {
	return `from etl.db import read_table, write_table


def run(day: str) -> int:
    rows = read_table("raw_${name}", day=day)
    print(f"${name}: loaded {len(rows)} rows for {day}")
    cleaned = [row for row in rows if row.get("id")]
    write_table("stg_${name}", cleaned, day=day)
    print(f"${name}: wrote {len(cleaned)} rows")
    return len(cleaned)
`;
}

/** A long refactor across many files, so the context fills up and gets condensed on the way. */
export function* condensingScript(context: ScriptContext): Script {
	yield* openScenario(context, condensingTemplates);
	yield* planTasks(
		context,
		[
			{title: 'Find every print() in jobs/', status: 'in_progress'},
			{title: 'Switch each job to etl.logging', status: 'todo'},
			{title: 'Run the test suite', status: 'todo'},
		],
		'Plan the logging refactor',
	);
	yield* terminal(context, {
		command: 'grep -rn "print(" --include=*.py jobs | wc -l && ls jobs',
		output: `${modules.length * 2}\n${modules.map((name) => `${name}.py`).join('  ')}`,
		summary: 'Count print calls in the jobs',
	});
	for (const [index, name] of modules.entries()) {
		const source = jobSource(name);
		const path = `jobs/${name}.py`;
		yield* viewFile(context, path, source, `Read ${path}`);
		yield* replaceInFile(
			context,
			{
				path,
				before: source,
				oldStr: `    print(f"${name}: loaded {len(rows)} rows for {day}")`,
				newStr: `    log.info("rows loaded", job="${name}", count=len(rows), day=day)`,
			},
			`Use the shared logger in ${path}`,
			agentText(context, `Same pattern as the previous jobs: ${name} is next.`),
		);
		if (index === 5) {
			yield* condense(
				context,
				`The user wants print() replaced by etl.logging structured logs in every job under jobs/. Done so far: ${modules
					.slice(0, 6)
					.join(', ')} (each had two print calls, replaced with log.info and keyword fields). Remaining: ${modules.slice(6).join(', ')}. Tests not run yet.`,
			);
			const responseId = context.ev.responseId();
			yield {events: [context.ev.completionLog(context.model, responseId, 182_000, 1_350, 'Summarize the conversation so far')]};
		}
		if (index === 6) yield checkpoint;
	}
	yield* terminal(context, {
		command: 'pytest -q',
		output: `........................................................................ [ 85%]\n............                                                             [100%]\n84 passed in 6.12s`,
		summary: 'Run the whole test suite',
	});
	yield* finish(context, `Replaced the print() calls in all ${modules.length} jobs under jobs/ with structured etl.logging calls. pytest -q passes (84 tests).`);
}
