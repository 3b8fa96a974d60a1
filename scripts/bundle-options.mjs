import {fileURLToPath} from 'node:url';
import {cachedSanitizeAnsi} from './cached-sanitize-ansi.mjs';
import {lazyEmojiRegex} from './lazy-emoji-regex.mjs';
import {yogaWithoutFetch} from './yoga-without-fetch.mjs';

/** Absolute, because esbuild resolves a relative alias from the working directory. */
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * What every esbuild bundle of this project shares: the installed CLI (build.mjs) and the bench
 * (bench/bundle.ts), so the bench measures what users run.
 */
export const sharedBundleOptions = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// React's production build; bin.ts sets NODE_ENV too, for the unbundled `npm start`.
	define: {'process.env.NODE_ENV': '"production"'},
	alias: {
		'react-devtools-core': here('./devtools-stub.mjs'),
		// The same function with a cache (source/view/widest-line-cached.ts).
		'widest-line': here('../source/view/widest-line-cached.ts'),
		// string-width with a table lookup in front (source/view/string-width-fast.ts).
		'string-width': here('../source/view/string-width-fast.ts'),
	},
	// CommonJS dependencies bundled into an ES module still call require for Node built-ins.
	banner: {js: "import {createRequire as agentTuiCreateRequire} from 'node:module'; const require = agentTuiCreateRequire(import.meta.url);"},
	// Start-up work no first frame needs: string-width's emoji expression, built when first
	// needed (~20 ms), and Node's fetch, loaded by yoga only to decode its base64 (~18 ms). And
	// Ink's sanitizeAnsi, run on every coloured row every frame, remembers its results.
	plugins: [lazyEmojiRegex, yogaWithoutFetch, cachedSanitizeAnsi],
	legalComments: 'none',
	logLevel: 'warning',
	// bin.ts sets NODE_ENV for the unbundled `npm start`; in the bundle it is already a constant.
	logOverride: {'assign-to-define': 'silent'},
};
