import {readFile} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {applyPatch, patchedPaths, patchFor} from '../source/boundary/source-patches.mjs';

/** Absolute, because esbuild resolves a relative alias from the working directory. */
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The dependencies' source patches (source/boundary/source-patches.mjs), applied as esbuild loads
 * each file: the files on disk stay as npm installed them, and the tests apply the same patches as
 * Node loads the files (patched-dependencies.mjs).
 */
const sourcePatches = {
	name: 'agent-tui-source-patches',
	setup(build) {
		build.onLoad({filter: patchedPaths}, async ({path}) => {
			const patch = patchFor(path);
			if (!patch) return undefined;
			return {contents: applyPatch(patch, await readFile(path, 'utf8')), loader: 'js'};
		});
	},
};

/**
 * What every esbuild bundle of this project shares: the installed CLI (build.mjs) and the bench
 * (bench/bundle.ts), so the bench measures what users run.
 */
export const sharedBundleOptions = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node22',
	// React's production build; bin.ts sets NODE_ENV too, for code run from the sources.
	define: {'process.env.NODE_ENV': '"production"'},
	alias: {
		// Ink imports React DevTools only in development, which a bundle never is.
		'react-devtools-core': here('./devtools-stub.mjs'),
	},
	// CommonJS dependencies bundled into an ES module still call require for Node built-ins.
	banner: {js: "import {createRequire as agentTuiCreateRequire} from 'node:module'; const require = agentTuiCreateRequire(import.meta.url);"},
	plugins: [sourcePatches],
	legalComments: 'none',
	logLevel: 'warning',
	// bin.ts sets NODE_ENV for code run from the sources; in the bundle it is already a constant.
	logOverride: {'assign-to-define': 'silent'},
};
