import {mkdirSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {build} from 'esbuild';
import {asciiOutput} from './ascii-output.mjs';
import {buildInputsHash, builtFromHash, stampFile} from './build-inputs.mjs';
import {sharedBundleOptions} from './bundle-options.mjs';
import {thirdPartyNotices} from './third-party-notices.mjs';

/**
 * The installed CLI: `dist/bin.cjs`, a small CommonJS file from source/bin.ts (Node loads it
 * sooner than an ES module, and `--version` is answered there), and the CLI it imports,
 * source/cli.tsx with everything it imports (Ink, React, yoga, zod, undici …) bundled as ES
 * modules: `dist/cli.js` and its chunks (yoga loads with a top-level await, which CommonJS lacks).
 * A bundle loads about three times faster than the few hundred small modules it replaces (ink
 * alone: ~460 ms as files, ~150 ms bundled, on the bench machine), which is most of the time to
 * the first frame. `npm start` and the end-to-end
 * tests run this bundle too, so what is tested is what ships.
 *
 *   node scripts/build.mjs [--outdir dist] [--if-stale]
 *
 * --if-stale: do nothing when dist/ was built from the same inputs (scripts/build-inputs.mjs).
 */

const {values} = parseArgs({options: {outdir: {type: 'string', default: 'dist'}, 'if-stale': {type: 'boolean', default: false}}});
const outdir = values.outdir;
const stamped = outdir === 'dist';
const inputs = stamped ? buildInputsHash() : null;
if (values['if-stale'] && stamped && builtFromHash() === inputs) process.exit(0);

// A clean directory: files of an older build would otherwise ship in the package. The single
// executables (scripts/package.mjs, never in the package) stay: each carries the hash of the
// inputs it was built from, and test/e2e-executable.test.ts refuses one older than the sources.
mkdirSync(outdir, {recursive: true});
for (const name of readdirSync(outdir)) if (!name.startsWith('agent-tui-linux-')) rmSync(join(outdir, name), {recursive: true, force: true});

// The executable: Node's own modules only, and `import('./cli.js')` left for Node to load.
await build({
	entryPoints: ['source/bin.ts'],
	outfile: `${outdir}/bin.cjs`,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: sharedBundleOptions.target,
	external: ['./cli.js'],
	// The one use of import.meta (package.json for `--version`), spelled for CommonJS.
	define: {'import.meta.url': 'agentTuiBinUrl'},
	banner: {js: "var agentTuiBinUrl = require('node:url').pathToFileURL(__filename).href;"},
	legalComments: 'none',
	logLevel: 'warning',
});

const {metafile} = await build({
	...sharedBundleOptions,
	entryPoints: {cli: 'source/cli.tsx'},
	outdir,
	// The headless commands, the simulator and the dashboard are chunks cli.js imports when chosen.
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
	metafile: true,
});

// Every chunk pure ASCII, so Node reads each as a one-byte string (scripts/ascii-output.mjs).
asciiOutput(outdir);

// The licences of the libraries inside the bundle travel with it (scripts/third-party-notices.mjs).
writeFileSync(`${outdir}/THIRD-PARTY-NOTICES.md`, thirdPartyNotices(metafile).text);

if (stamped) writeFileSync(stampFile, `${inputs}\n`);
