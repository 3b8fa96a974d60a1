import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: fleet and stored history steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['fleet', 'stored'], ['fleet', 'requests']);
});
