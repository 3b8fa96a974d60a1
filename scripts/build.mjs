import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {build} from 'esbuild';

/**
 * The installed CLI: source/bin.ts and everything it imports (Ink, React, yoga, zod, undici …)
 * bundled into one ES module, `dist/bin.js`. One file loads about three times faster than the
 * few hundred small modules it replaces (ink alone: ~460 ms as files, ~150 ms bundled, on the
 * bench machine), which is most of the time to the first frame.
 *
 *   node scripts/build.mjs [--outdir dist]
 */

const {values} = parseArgs({options: {outdir: {type: 'string', default: 'dist'}}});
const outdir = values.outdir;
// A clean directory: files of an older build would otherwise ship in the package.
rmSync(outdir, {recursive: true, force: true});
mkdirSync(outdir, {recursive: true});
// Ink loads React DevTools only in development; the installed CLI never is.
// Absolute: esbuild resolves a relative alias from the working directory, which breaks `--outdir /abs`.
const stub = resolve(join(outdir, 'devtools-stub.mjs'));
writeFileSync(stub, 'export default {};\n');

await build({
	entryPoints: {bin: 'source/bin.ts'},
	outdir,
	// bin.js stays small (`--version` is answered before anything else loads); the CLI and its
	// dependencies are a chunk it imports.
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// React's production build; bin.ts sets NODE_ENV too, for the unbundled `npm start`.
	define: {'process.env.NODE_ENV': '"production"'},
	// widest-line: the same function with a cache (source/view/widest-line-cached.ts).
	alias: {'react-devtools-core': stub, 'widest-line': fileURLToPath(new URL('../source/view/widest-line-cached.ts', import.meta.url))},
	// CommonJS dependencies bundled into an ES module still call require for Node built-ins.
	banner: {js: "import {createRequire as agentTuiCreateRequire} from 'node:module'; const require = agentTuiCreateRequire(import.meta.url);"},
	legalComments: 'none',
	logLevel: 'warning',
	// bin.ts sets NODE_ENV for the unbundled `npm start`; in the bundle it is already a constant.
	logOverride: {'assign-to-define': 'silent'},
});
