import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {runNode} from './run-process.js';

/**
 * `npm run bench` works: each of its steps produces its rows, at tiny sizes, bundled as the table
 * runs them. This proves the bench runs on a fresh clone; it does not judge the targets (timings on
 * a shared CI machine are not evidence; the bench itself is, on a quiet one). The steps are split
 * over three files: Node's runner gives each file as a whole `--test-timeout` (60 s), and the whole
 * tiny bench took 58 s on Node 26 and more than 60 s on Node 22.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

type Row = {area: string; name: string; figure: string; target: string; met: boolean};

/** Runs `steps` of the tiny bench, bundled, and checks each expected area has rows with a figure and a target. */
export async function smokeSteps(steps: readonly string[], areas: readonly string[]): Promise<void> {
	const result = await runNode(['--expose-gc', '--import', 'tsx', 'bench/run.ts', '--tiny', '--json', '--bundled', `--only=${steps.join(',')}`], {cwd: root, timeoutMs: 55_000});
	assert.equal(result.code, 0, result.stderr);
	const rows = JSON.parse(result.stdout) as Row[];
	const seen = new Set(rows.map((row) => row.area));
	for (const area of areas) assert.ok(seen.has(area), `no ${area} row`);
	for (const row of rows) {
		assert.ok(row.figure.length > 0 && row.figure !== 'NaN', `${row.name}: figure`);
		assert.ok(!/NaN|Infinity/.test(row.figure), `${row.name}: ${row.figure}`);
		assert.ok(row.target.length > 0, `${row.name}: target`);
		assert.equal(typeof row.met, 'boolean');
	}
}
