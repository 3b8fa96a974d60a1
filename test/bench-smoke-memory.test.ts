import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: stored-open, bounded, real-stream and big-inputs steps each print their rows', {timeout: 58_000}, async () => {
	await smokeSteps(['stored-open', 'bounded', 'real-stream', 'big-inputs'], ['stored', 'bounded', 'real stream', 'format', 'wire', 'simulator']);
});
