import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: ingest, frames, timeline, Changes and request steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['ingest', 'frame', 'timeline', 'changes', 'requests'], ['ingest', 'frame', 'timeline', 'changes', 'requests']);
});
