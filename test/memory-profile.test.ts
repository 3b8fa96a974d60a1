import {test} from 'node:test';
import assert from 'node:assert/strict';
import {heapFlags} from '../source/config/memory-profile.js';
import {runNode} from './helpers/run-process.js';

// The flags are set with v8.setFlagsFromString as the dashboard starts. V8 answers a flag it does
// not know on stderr, over the dashboard's first frame, and ignores every flag after it.

async function setInChild(flags: string): Promise<{code: number | null; stderr: string; stdout: string}> {
	const script = `require('node:v8').setFlagsFromString(${JSON.stringify(flags)}); process.stdout.write('set')`;
	return runNode(['-e', script], {cwd: process.cwd(), timeoutMs: 20_000});
}

test('memory saver mode where V8 has it (13 and later: Node 24, 26), --optimize-for-size before', () => {
	assert.equal(heapFlags('12.4.254.21-node.57'), '--optimize-for-size');
	assert.equal(heapFlags('13.6.233.17-node.53'), '--memory-saver-mode --heap-growing-percent=50');
	assert.equal(heapFlags('14.6.202.34-node.34'), '--memory-saver-mode --heap-growing-percent=50');
});

test('this Node knows every heap flag chosen for it, and setting them prints nothing', {timeout: 45_000}, async () => {
	const flags = heapFlags(process.versions.v8);
	const known = (await runNode(['--v8-options'], {cwd: process.cwd(), timeoutMs: 20_000})).stdout;
	for (const flag of flags.split(' ')) {
		const name = flag.split('=')[0]!;
		assert.ok(known.includes(`\n  ${name} `), `${name} is not a V8 flag of Node ${process.version}`);
	}
	const set = await setInChild(flags);
	assert.equal(set.code, 0);
	assert.equal(set.stdout, 'set');
	assert.equal(set.stderr, '');
	// The check above can see a refusal: an unknown flag is answered on stderr.
	const refused = await setInChild('--no-such-heap-flag-at-all');
	assert.equal(refused.stdout, 'set');
	assert.match(refused.stderr, /unrecognized flag/);
});
