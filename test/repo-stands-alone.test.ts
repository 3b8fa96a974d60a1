import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {fileURLToPath} from 'node:url';
import {test} from 'node:test';

/**
 * The repository stands alone: what the code relies on is written in `docs/` or cites the
 * upstream source file. A reference to a design document that lives outside the repository (a
 * folder beside the clone, a reference note) points at something a contributor cannot open, so
 * no file outside node_modules, dist and .git may name one.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));
const skipped = new Set(['node_modules', '.git', 'dist']);

// Spelled in pieces so that this file does not match itself when the list is read elsewhere.
const outside = [
	['..', '/shared'],
	['shared', '/reference'],
	['shared', '/seeds'],
	['DESIGN', '.md'],
	['openhands', '-wire'],
	['reliability', '-security'],
	['ink', '-engineering'],
	['tui', '-anchors'],
	['seed 0', '0'],
].map((parts) => parts.join(''));

function* files(folder: string): Generator<string> {
	for (const entry of readdirSync(folder, {withFileTypes: true})) {
		if (skipped.has(entry.name)) continue;
		const path = join(folder, entry.name);
		if (entry.isDirectory()) yield* files(path);
		else if (entry.isFile()) yield path;
	}
}

function offences(): string[] {
	const found: string[] = [];
	for (const path of files(root)) {
		const name = relative(root, path).split(sep).join('/');
		if (name === self || statSync(path).size > 4_000_000) continue;
		const buffer = readFileSync(path);
		if (buffer.includes(0)) continue; // binary
		const lines = buffer.toString('utf8').split('\n');
		for (const [index, line] of lines.entries()) {
			for (const word of outside) if (line.includes(word)) found.push(`${name}:${index + 1}: ${word}`);
		}
	}
	return found;
}

test('no file outside node_modules points to a design document that is not in the repository', {timeout: 30_000}, () => {
	assert.deepEqual(offences(), []);
});

test('the documents the code cites are in docs/, and every section a citation names exists', {timeout: 30_000}, () => {
	const sections = new Map<string, Set<string>>();
	for (const doc of ['service-behaviour.md', 'security-checklist.md']) {
		const text = readFileSync(join(root, 'docs', doc), 'utf8');
		sections.set(doc, new Set([...text.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((match) => match[1]!)));
	}
	const cited: string[] = [];
	const broken: string[] = [];
	for (const path of files(root)) {
		const name = relative(root, path).split(sep).join('/');
		if (!/\.(ts|tsx|md|mjs|js)$/.test(name) || name.startsWith('docs/')) continue;
		const text = readFileSync(path, 'utf8').replace(/\n\s*(\*|\/\/)\s*/g, ' ');
		for (const match of text.matchAll(/docs\/(service-behaviour|security-checklist)\.md((?:[ ,;]*(?:§\s?\d+(?:\.\d+)?|and|,))*)/g)) {
			const doc = `${match[1]}.md`;
			cited.push(name);
			for (const section of match[2]!.matchAll(/§\s?(\d+(?:\.\d+)?)/g)) {
				if (!sections.get(doc)!.has(section[1]!)) broken.push(`${name}: ${doc} §${section[1]}`);
			}
		}
	}
	assert.ok(cited.length >= 40, `the code cites docs/ (${cited.length} citations found)`);
	assert.deepEqual(broken, [], 'every cited section exists');
});
