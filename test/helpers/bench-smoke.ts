import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {runNode} from './run-process.js';

/**
 * `npm run bench` works: each of its steps produces its rows, at tiny sizes, bundled as the table
 * runs them. This proves the bench runs on a fresh clone; it does not judge the targets (timings on
 * a shared CI machine are not evidence; the bench itself is, on a quiet one).
 *
 * Node's runner gives each file as a whole `--test-timeout` (60 s), a guard against a hang, not a
 * measure. So the steps are spread over six files of 12–22 s each on a quiet machine (Node 26, two
 * files at a time; each file pays ~5 s to bundle), 30–44 s beside two busy loops on two cores: a
 * machine more than twice as slow gives the same verdict. Two files of 45–55 s did not (both failed
 * beside two busy loops), and a longer timeout would only make a hang slower to see.
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
