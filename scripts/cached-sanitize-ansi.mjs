import {fileURLToPath} from 'node:url';
import {sourcePatchPlugin} from './source-patch-plugin.mjs';

/**
 * Ink passes the text of every Text node through its `sanitizeAnsi` on every frame (squashing
 * text nodes, measuring them). For text with colour codes, as every painted list row has, that
 * tokenizes the whole string each time: about a tenth of a key press's frame at 160x48, profiled.
 * The result depends on the string alone, so the bundle remembers it: the rows on screen are the
 * same strings frame after frame. Forgets everything past 4,096 strings, so memory stays bounded.
 */

const original = 'export default sanitizeAnsi;';
// The project's BoundedCache (source/view/bounded-cache.ts), imported by absolute path: the
// module is Ink's, in node_modules.
const boundedCache = fileURLToPath(new URL('../source/view/bounded-cache.ts', import.meta.url));
const cached = `import {BoundedCache as SanitizedTexts} from ${JSON.stringify(boundedCache)};
const sanitizedTexts = new SanitizedTexts(4096);
const cachedSanitizeAnsi = (text) => (hasAnsiControlCharacters(text) ? sanitizedTexts.get(text, sanitizeAnsi) : text);
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
export const cachedSanitizeAnsi = sourcePatchPlugin('cached-sanitize-ansi', /[\\/]node_modules[\\/]ink[\\/]build[\\/]sanitize-ansi\.js$/, cachedSanitizeAnsiSource);
