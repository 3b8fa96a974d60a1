import {test} from 'node:test';
import {smokeSteps} from './helpers/bench-smoke.js';

test('the bench: the follower step prints its row', {timeout: 58_000}, async () => {
	await smokeSteps(['follower'], ['follower']);
});
