import {readFile} from 'node:fs/promises';

/**
 * Ink passes the text of every Text node through its `sanitizeAnsi` on every frame (squashing
 * text nodes, measuring them). For text with colour codes, as every painted list row has, that
 * tokenizes the whole string each time: about a tenth of a key press's frame at 160x48, profiled.
 * The result depends on the string alone, so the bundle remembers it: the rows on screen are the
 * same strings frame after frame. Forgets everything past 4,096 strings, so memory stays bounded.
 */

const original = 'export default sanitizeAnsi;';
const cached = `const sanitizedTexts = new Map();
const cachedSanitizeAnsi = (text) => {
    if (!hasAnsiControlCharacters(text)) return text;
    let sanitized = sanitizedTexts.get(text);
    if (sanitized === undefined) {
        if (sanitizedTexts.size >= 4096) sanitizedTexts.clear();
        sanitized = sanitizeAnsi(text);
        sanitizedTexts.set(text, sanitized);
    }
    return sanitized;
};
export default cachedSanitizeAnsi;`;

/** Ink's sanitize-ansi.js with its result remembered. Throws when the module is not as expected. */
export function cachedSanitizeAnsiSource(source) {
	if (!source.includes(original) || !source.includes("import { hasAnsiControlCharacters, tokenizeAnsi } from './ansi-tokenizer.js';")) {
		// A new Ink: read sanitize-ansi.js again before wrapping it.
		throw new Error('cached-sanitize-ansi: ink/build/sanitize-ansi.js is not the one this wrapper was written for');
	}
	return source.replace(original, cached);
}

/** The esbuild plugin for Ink's sanitize-ansi.js. */
export const cachedSanitizeAnsi = {
	name: 'cached-sanitize-ansi',
	setup(build) {
		build.onLoad({filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]sanitize-ansi\.js$/}, async (args) => ({
			contents: cachedSanitizeAnsiSource(await readFile(args.path, 'utf8')),
			loader: 'js',
		}));
	},
};
