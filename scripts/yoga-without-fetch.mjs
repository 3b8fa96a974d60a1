import {sourcePatchPlugin} from './source-patch-plugin.mjs';

/**
 * yoga-layout (Ink's layout engine) carries its WebAssembly as a base64 data: URL, and its
 * emscripten loader fetches that URL whenever `fetch` exists, as it does on Node 20: the first
 * call of fetch loads Node's own copy of undici (~18 ms of every start-up, profiled) only to
 * decode base64. The bundle makes it decode a data: URL directly (its own `wa`, with atob), as
 * the loader already does where fetch is missing.
 */

const before = 'function ya(){return w||"function"!=typeof fetch?Promise.resolve()';
const after = 'function ya(){return w||"function"!=typeof fetch||ua(H)?Promise.resolve()';

/** The loader's source, decoding its data: URL without fetch. Throws when it is not as expected. */
export function yogaWithoutFetchSource(source) {
	const at = source.indexOf(before);
	if (at === -1 || source.indexOf(before, at + 1) !== -1 || !source.includes('function ua(a){return a.startsWith("data:application/octet-stream;base64,")}')) {
		// A new yoga-layout: read its loader again before patching it.
		throw new Error('yoga-without-fetch: the yoga-layout loader is not the one this patch was written for');
	}
	return source.replace(before, after);
}

/** The esbuild plugin for yoga-layout's base64 loader. */
export const yogaWithoutFetch = sourcePatchPlugin('yoga-without-fetch', /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/, yogaWithoutFetchSource);
