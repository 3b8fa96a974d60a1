import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: stored-open and big-inputs steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['stored-open', 'big-inputs'], ['stored', 'format', 'wire', 'simulator']);
});
