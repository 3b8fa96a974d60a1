import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';

/**
 * `npm run bench` works: every row of the table is produced, at tiny sizes. This proves the bench
 * runs on a fresh clone; it does not judge the targets (timings on a shared CI machine are not
 * evidence; the bench itself is, on a quiet one).
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** The bench in a child process, waited for without blocking this one (its timeout must be able to fire). */
function runBench(args: readonly string[], timeoutMs: number): Promise<{status: number | null; stdout: string; stderr: string}> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/run.ts', ...args], {cwd: root, env: {...process.env}});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('close', (status) => {
			clearTimeout(timer);
			resolve({status, stdout, stderr});
		});
	});
}

test('the bench prints every measure, each with a figure and a target', {timeout: 180_000}, async () => {
	const result = await runBench(['--tiny', '--json'], 170_000);
	assert.equal(result.status, 0, result.stderr);
	const rows = JSON.parse(result.stdout) as Array<{area: string; name: string; figure: string; target: string; met: boolean}>;
	const areas = new Set(rows.map((row) => row.area));
	for (const area of ['ingest', 'frame', 'timeline', 'traffic', 'requests', 'fleet', 'start-up', 'long run', 'changes', 'real stream', 'format', 'wire', 'simulator']) assert.ok(areas.has(area), `no ${area} row`);
	for (const row of rows) {
		assert.ok(row.figure.length > 0 && row.figure !== 'NaN', `${row.name}: figure`);
		assert.ok(!/NaN|Infinity/.test(row.figure), `${row.name}: ${row.figure}`);
		assert.ok(row.target.length > 0, `${row.name}: target`);
		assert.equal(typeof row.met, 'boolean');
	}
	assert.ok(rows.length >= 15, `${rows.length} rows`);
});
