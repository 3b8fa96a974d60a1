import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: start-up and long-run steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['start-up', 'long'], ['start-up', 'long run']);
});
