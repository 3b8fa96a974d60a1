import {sourcePatchPlugin} from './source-patch-plugin.mjs';

/**
 * string-width builds `/^\p{RGI_Emoji}$/v` when it loads: about 20 ms of every start-up (V8
 * expands the property into thousands of sequences), for an expression that only a cluster
 * outside the glyph table reaches (source/view/string-width-fast.ts), such as an emoji.
 * The bundle builds it on first use instead. string-width only calls its `test`.
 */

const literal = String.raw`/^\p{RGI_Emoji}$/v`;
const lazy = String.raw`{test(text) { return (this.built ??= new RegExp("^\\p{RGI_Emoji}$", "v")).test(text); }}`;

/** string-width's source with the expression built on first use. Throws when it is not there. */
export function lazyEmojiRegexSource(source) {
	const at = source.indexOf(literal);
	if (at === -1 || source.indexOf(literal, at + 1) !== -1 || !/const rgiEmojiRegex = \/\^\\p\{RGI_Emoji\}\$\/v;/.test(source)) {
		// A new string-width: check how it uses the expression before lazying it again.
		throw new Error('lazy-emoji-regex: string-width no longer declares rgiEmojiRegex as expected');
	}
	const uses = source.match(/rgiEmojiRegex\b(\.\w+)?/g) ?? [];
	if (uses.some((use) => use !== 'rgiEmojiRegex' && use !== 'rgiEmojiRegex.test')) {
		throw new Error(`lazy-emoji-regex: string-width uses rgiEmojiRegex other than by test: ${uses.join(', ')}`);
	}
	return source.replace(literal, lazy);
}

/** The esbuild plugin: every copy of string-width's index.js goes through lazyEmojiRegexSource. */
export const lazyEmojiRegex = sourcePatchPlugin('lazy-emoji-regex', /[\\/]node_modules[\\/]string-width[\\/]index\.js$/, lazyEmojiRegexSource);
