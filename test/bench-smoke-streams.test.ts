import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: traffic, fleet, stored history, start-up and long-run steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['traffic', 'fleet', 'stored', 'start-up', 'long'], ['traffic', 'fleet', 'requests', 'start-up', 'long run']);
});
