import assert from 'node:assert/strict';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import fc from 'fast-check';
import {cachedSanitizeAnsiSource} from '../scripts/cached-sanitize-ansi.mjs';

/** The bundle's sanitizeAnsi remembers its results and returns exactly what Ink's own does. */

const moduleFile = fileURLToPath(new URL('../node_modules/ink/build/sanitize-ansi.js', import.meta.url));
type Sanitize = (text: string) => string;

// Colours Ink keeps, and what it must strip however often the same text comes back.
const piece = fc.constantFrom('row ', '漢字', '\u001B[36m', '\u001B[0;7;34m', '\u001B[39m', '\u001B[2J', '\u001B[1A', '\u001B]8;;https://x.test\u0007', 'link', '\u001B]8;;\u0007', '\u009B31m', '\u001B[?25l', '\u0007', '\u001B', ' · ');

test('the remembered sanitizeAnsi answers as Ink\'s own, the first time and every time after', async (t) => {
	const copy = moduleFile.replace(/\.js$/, `.cached-test-${process.pid}.js`);
	writeFileSync(copy, cachedSanitizeAnsiSource(readFileSync(moduleFile, 'utf8')));
	t.after(() => rmSync(copy, {force: true}));
	const {default: cached} = (await import(pathToFileURL(copy).href)) as {default: Sanitize};
	const {default: original} = (await import(pathToFileURL(moduleFile).href)) as {default: Sanitize};
	assert.notEqual(cached, original);
	fc.assert(
		fc.property(fc.array(piece, {maxLength: 12}), (pieces) => {
			const text = pieces.join('');
			const expected = original(text);
			assert.equal(cached(text), expected);
			assert.equal(cached(text), expected, 'from the cache');
		}),
		{numRuns: 2000},
	);
	// Past its limit the cache starts again rather than growing: still the same answers.
	for (let index = 0; index < 10_000; index++) assert.equal(cached(`\u001B[3${index % 8}m${index}\u001B[2J`), `\u001B[3${index % 8}m${index}`);
});

test('an Ink whose sanitize-ansi.js changed stops the build', () => {
	assert.throws(() => cachedSanitizeAnsiSource(readFileSync(moduleFile, 'utf8').replace('export default sanitizeAnsi;', 'export {sanitizeAnsi as default};')), /not the one/);
});
