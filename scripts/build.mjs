import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {parseArgs} from 'node:util';
import {build} from 'esbuild';
import {asciiOutput} from './ascii-output.mjs';
import {buildInputsHash, builtFromHash, stampFile} from './build-inputs.mjs';
import {sharedBundleOptions} from './bundle-options.mjs';
import {thirdPartyNotices} from './third-party-notices.mjs';

/**
 * The installed CLI: source/bin.ts and everything it imports (Ink, React, yoga, zod, undici …)
 * bundled into one ES module, `dist/bin.js`. One file loads about three times faster than the
 * few hundred small modules it replaces (ink alone: ~460 ms as files, ~150 ms bundled, on the
 * bench machine), which is most of the time to the first frame. `npm start` and the end-to-end
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

// A clean directory: files of an older build would otherwise ship in the package.
rmSync(outdir, {recursive: true, force: true});
mkdirSync(outdir, {recursive: true});

const {metafile} = await build({
	...sharedBundleOptions,
	entryPoints: {bin: 'source/bin.ts'},
	outdir,
	// bin.js stays small (`--version` is answered before anything else loads); the CLI and its
	// dependencies are a chunk it imports.
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
	metafile: true,
});

// Every chunk pure ASCII, so Node reads each as a one-byte string (scripts/ascii-output.mjs).
asciiOutput(outdir);

// The licences of the libraries inside the bundle travel with it (scripts/third-party-notices.mjs).
writeFileSync(`${outdir}/THIRD-PARTY-NOTICES.md`, thirdPartyNotices(metafile).text);

if (stamped) writeFileSync(stampFile, `${inputs}\n`);
