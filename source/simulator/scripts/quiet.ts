import {checkpoint, type ScenarioTemplate, openScenario} from './opening.js';
import {terminal, viewFile} from './tools.js';
import type {Script, ScriptContext} from './types.js';

export const quietTemplates: readonly ScenarioTemplate[] = [
	{
		title: 'Profile the nightly warehouse import',
		repository: 'northwind/warehouse-sync',
		branch: 'main',
		request: 'The nightly import takes 3 hours since last week. Run it locally with profiling on and tell me where the time goes.',
		skills: ['docker'],
	},
];

/** Starts a long command and then says nothing: status stays running, the timeline goes silent. */
export function* quietScript(context: ScriptContext): Script {
	yield* openScenario(context, quietTemplates);
	yield* viewFile(
		context,
		'docker-compose.yml',
		'services:\n  importer:\n    build: .\n    command: python -m cProfile -o /tmp/import.prof -m warehouse_sync.import --full\n    env_file: .env.local\n',
		'Read the compose file',
	);
	yield* terminal(context, {
		command: 'docker compose up --build importer',
		exitCode: -1,
		output: `[+] Building 41.2s (12/12) FINISHED
[+] Running 2/2
 ✔ Network warehouse-sync_default       Created
 ✔ Container warehouse-sync-importer-1  Created
Attaching to importer-1
importer-1  | 2026-11-22 03:00:04 INFO  import started: 412 tables, full mode
importer-1  | 2026-11-22 03:00:09 INFO  table customers: 1,204,118 rows`,
		summary: 'Run the import with profiling enabled',
		thought: 'Start the import with cProfile; it takes a while.',
		timeout: 7200,
	});
	yield checkpoint;
	for (;;) yield {events: []};
}
