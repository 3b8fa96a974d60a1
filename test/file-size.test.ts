import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

/**
 * The house rule "each file one job, no file over 400 lines" (docs/layers.md), for every file
 * under source/: one that crosses it is split by job, not let grow.
 */

const limit = 400;

const root = fileURLToPath(new URL('..', import.meta.url));

function* files(folder: string): Generator<string> {
	for (const entry of readdirSync(folder, {withFileTypes: true})) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) yield* files(path);
		else if (entry.isFile()) yield path;
	}
}

/** Lines as `wc -l` counts them for a file that ends with a newline; a last line without one counts too. */
function lineCount(text: string): number {
	if (text.length === 0) return 0;
	const newlines = text.split('\n').length - 1;
	return text.endsWith('\n') ? newlines : newlines + 1;
}

function sizes(): Map<string, number> {
	const found = new Map<string, number>();
	for (const path of files(join(root, 'source'))) found.set(relative(root, path).split(sep).join('/'), lineCount(readFileSync(path, 'utf8')));
	return found;
}

test('no file under source/ is over 400 lines', () => {
	const found = sizes();
	assert.ok(found.size > 400, `read every file under source/ (${found.size})`);
	const over = [...found].filter(([, lines]) => lines > limit).map(([path, lines]) => `${path}: ${lines} lines`);
	assert.deepEqual(over, [], `over ${limit} lines (split the file by job): ${over.join('; ')}`);
});

test('lines are counted as wc -l counts them', () => {
	assert.equal(lineCount(''), 0);
	assert.equal(lineCount('a\n'), 1);
	assert.equal(lineCount('a\nb'), 2);
	assert.equal(lineCount(`${'x\n'.repeat(401)}`), 401);
	// The six files split to make this rule hold are well under it.
	const found = sizes();
	for (const path of ['source/wire/schemas/events.ts', 'source/wire/http.ts', 'source/wire/app-client.ts', 'source/format/event-details.ts', 'source/format/event-summary.ts', 'source/view/use-key-dispatch.ts']) {
		const lines = found.get(path);
		assert.ok(lines !== undefined && lines > 0 && lines <= limit, `${path}: ${lines}`);
	}
});
