import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

/**
 * format/ is pure display strings: what it runs may read plain types and plain helpers, never
 * the zod schemas (nor anything that loads them). Follows every runtime import (not
 * `import type`) from each format/ file through the project's own modules.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const formatDir = join(root, 'source', 'format');

function runtimeImports(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers: string[] = [];
	for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gms)) {
		if (!match[1]) specifiers.push(match[2]!);
	}
	return specifiers;
}

function reaches(file: string, seen = new Set<string>(), path: string[] = []): string[] | null {
	if (seen.has(file)) return null;
	seen.add(file);
	for (const specifier of runtimeImports(file)) {
		if (specifier === 'zod') return [...path, relative(root, file), 'zod'];
		if (!specifier.startsWith('.')) continue;
		const target = resolve(dirname(file), specifier).replace(/\.js$/, '');
		const source = [`${target}.ts`, `${target}.tsx`].find((candidate) => {
			try {
				readFileSync(candidate);
				return true;
			} catch {
				return false;
			}
		});
		if (!source) continue;
		const found = reaches(source, seen, [...path, relative(root, file)]);
		if (found) return found;
	}
	return null;
}

test('no format/ module loads zod, directly or through another module', () => {
	const files = readdirSync(formatDir).filter((name) => name.endsWith('.ts'));
	assert.ok(files.length > 10, `read the format folder (${files.length} files)`);
	for (const name of files) {
		const chain = reaches(join(formatDir, name));
		assert.equal(chain, null, `${name} reaches zod: ${chain?.join(' → ')}`);
	}
});

test('the check sees a zod import when one is there', () => {
	// The schema module itself, through the same walk: a check that never finds zod proves nothing.
	assert.ok(reaches(join(root, 'source', 'wire', 'schemas', 'events.ts')));
});
