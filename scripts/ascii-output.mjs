import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {transformSync} from 'esbuild';

/**
 * Makes every JavaScript file esbuild wrote pure ASCII. esbuild escapes what is not ASCII in
 * strings and names (its default `charset: 'ascii'`) but leaves it in the comments it keeps and in
 * regular expressions. One such character anywhere makes Node read the whole file as a UTF-16
 * string, twice the memory, and V8 then reads its code in the slower two-byte way: with the app
 * chunk and zod's chunk two-byte, the launch to the first frame ran 1.44 G instructions, with
 * every chunk ASCII 1.27 G (`perf stat -e instructions:u`, median of six launches each, Node 26).
 *
 * A character is replaced by its `\uXXXX` escape, which changes nothing in a comment. Anywhere
 * else (a regular expression, a String.raw template) the build stops and names the place: write
 * the escape in the source instead. Whether only comments changed is asked of esbuild: the file
 * printed without comments must be the same before and after.
 */
export function asciiOutput(directory) {
	for (const entry of readdirSync(directory, {recursive: true, withFileTypes: true})) {
		if (!entry.isFile() || !/\.c?js$/.test(entry.name)) continue;
		const path = join(entry.parentPath, entry.name);
		const text = readFileSync(path, 'utf8');
		const ascii = asciiSource(text, path);
		if (ascii !== text) writeFileSync(path, ascii);
	}
}

/** A character past ASCII; `hasNotAscii` is its test without the global flag's moving lastIndex. */
const notAscii = /[^\u0000-\u007F]/g;
const hasNotAscii = (text) => text.search(notAscii) !== -1;

/** `text` with every character past ASCII escaped; throws when one is outside a comment. */
export function asciiSource(text, name = 'the bundle') {
	if (!hasNotAscii(text)) return text;
	const ascii = text.replaceAll(notAscii, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
	if (withoutComments(ascii) !== withoutComments(text)) {
		const line = text.split('\n').findIndex((row) => hasNotAscii(row) && !/^\s*(\/\/|\/\*|\*)/.test(row));
		throw new Error(`${name}: a character past ASCII outside a comment (line ${line + 1}), which esbuild does not escape (a regular expression or a raw template): write it as a \\u escape in the source`);
	}
	return ascii;
}

const withoutComments = (text) => transformSync(text, {minifyWhitespace: true, legalComments: 'none', charset: 'utf8', format: 'esm', logLevel: 'silent'}).code;
