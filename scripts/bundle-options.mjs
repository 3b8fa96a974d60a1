import {fileURLToPath} from 'node:url';

/** Absolute, because esbuild resolves a relative alias from the working directory. */
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * What every esbuild bundle of this project shares: the installed CLI (build.mjs) and the bench
 * (bench/bundle.ts), so the bench measures what users run. The bundle changes no dependency: the
 * patched Ink, string-width, widest-line and yoga are node_modules' own files (patches/, applied
 * at install), the same ones `npm start` and the tests load (source/ink-patches/index.ts).
 */
export const sharedBundleOptions = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// React's production build; bin.ts sets NODE_ENV too, for code run from the sources.
	define: {'process.env.NODE_ENV': '"production"'},
	alias: {
		// Ink imports React DevTools only in development, which a bundle never is.
		'react-devtools-core': here('./devtools-stub.mjs'),
	},
	// CommonJS dependencies bundled into an ES module still call require for Node built-ins.
	banner: {js: "import {createRequire as agentTuiCreateRequire} from 'node:module'; const require = agentTuiCreateRequire(import.meta.url);"},
	legalComments: 'none',
	logLevel: 'warning',
	// bin.ts sets NODE_ENV for code run from the sources; in the bundle it is already a constant.
	logOverride: {'assign-to-define': 'silent'},
};
