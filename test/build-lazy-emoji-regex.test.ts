import assert from 'node:assert/strict';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import fc from 'fast-check';
import realStringWidth from '../node_modules/string-width/index.js';
import {lazyEmojiRegexSource} from '../scripts/lazy-emoji-regex.mjs';

/** The bundle's string-width (its emoji expression built on first use) measures as the package does. */

const packageFile = fileURLToPath(new URL('../node_modules/string-width/index.js', import.meta.url));

test('string-width with its emoji expression built lazily measures every string as the package does', async () => {
	const source = readFileSync(packageFile, 'utf8');
	const lazy = lazyEmojiRegexSource(source);
	assert.notEqual(lazy, source);
	assert.doesNotMatch(lazy, /\/\^\\p\{RGI_Emoji\}\$\/v/);
	// Beside the original, so its own imports (strip-ansi, get-east-asian-width) resolve.
	const copy = packageFile.replace(/index\.js$/, `index.lazy-test-${process.pid}.js`);
	writeFileSync(copy, lazy);
	try {
		const {default: lazyStringWidth} = (await import(pathToFileURL(copy).href)) as {default: typeof realStringWidth};
		for (const text of ['', 'plain', '👍', '👩‍💻 at work', '🇫🇷', '1️⃣', '❤️', '漢字', 'x\u0301', '\u001B[31m🙂\u001B[39m']) {
			assert.equal(lazyStringWidth(text), realStringWidth(text), JSON.stringify(text));
		}
		const emojiHeavy = fc.array(fc.constantFrom('👍', '🏽', '\u200D', '💻', '❤', '\uFE0F', '🇫', '🇷', 'a', '漢', '\u0301', '#', '\u20E3'), {maxLength: 12}).map((parts) => parts.join(''));
		fc.assert(
			fc.property(fc.oneof(emojiHeavy, fc.string({unit: 'grapheme', maxLength: 20}), fc.string({unit: 'binary', maxLength: 20})), (text) => {
				assert.equal(lazyStringWidth(text), realStringWidth(text));
			}),
			{numRuns: 1500},
		);
	} finally {
		rmSync(copy, {force: true});
	}
});

test('a string-width that declares or uses the expression differently stops the build', () => {
	const source = readFileSync(packageFile, 'utf8');
	assert.throws(() => lazyEmojiRegexSource(source.replace('const rgiEmojiRegex', 'let rgiEmojiRegex')), /no longer declares/);
	assert.throws(() => lazyEmojiRegexSource(`${source}\nexport const flags = rgiEmojiRegex.flags;`), /other than by test/);
});
