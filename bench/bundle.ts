import {rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {asciiOutput} from '../scripts/ascii-output.mjs';
import {sharedBundleOptions} from '../scripts/bundle-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bench itself bundled with the CLI's options (scripts/bundle-options.mjs: one ES module,
 * React's production build, no devtools; the patched dependencies are node_modules' own): every measurement then runs
 * the code an installed user runs, under plain `node`, without tsx compiling TypeScript in a
 * loader thread (which alone holds about 110 MB of resident memory and slows module loading). Returns the bundle's path; the
 * directory sits beside node_modules so the bundle's few external files resolve as the CLI's do.
 */
export async function bundleBench(): Promise<{file: string; remove(): void}> {
	const outdir = `${root}.bench-dist-run-${process.pid}`;
	rmSync(outdir, {recursive: true, force: true});
	await build({
		...sharedBundleOptions,
		entryPoints: {run: `${root}bench/run.ts`},
		outdir,
		// esbuild is the bench's own tool, loaded by the parent only: never bundled.
		external: ['esbuild'],
	});
	asciiOutput(outdir);
	return {file: `${outdir}/run.js`, remove: () => rmSync(outdir, {recursive: true, force: true})};
}
