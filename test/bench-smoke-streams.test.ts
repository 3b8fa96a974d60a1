import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: real-stream and bounded steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['real-stream', 'bounded'], ['real stream', 'bounded']);
});
