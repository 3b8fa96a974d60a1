import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: the traffic step prints its rows', {timeout: 58_000}, async () => {
	await smokeSteps(['traffic'], ['traffic']);
});
