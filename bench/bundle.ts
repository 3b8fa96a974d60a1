import {rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bench itself bundled the way scripts/build.mjs bundles the CLI (one ES module, React's
 * production build, no devtools): every measurement then runs the code an installed user runs,
 * under plain `node`, without tsx compiling TypeScript in a loader thread (which alone holds
 * about 110 MB of resident memory and slows module loading). Returns the bundle's path; the
 * directory sits beside node_modules so the bundle's few external files resolve as the CLI's do.
 */
export async function bundleBench(): Promise<{file: string; remove(): void}> {
	const outdir = `${root}.bench-dist-run-${process.pid}`;
	rmSync(outdir, {recursive: true, force: true});
	await build({
		entryPoints: {run: `${root}bench/run.ts`},
		outdir,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		define: {'process.env.NODE_ENV': '"production"'},
		alias: {'react-devtools-core': `${root}bench/devtools-stub.ts`, 'widest-line': `${root}source/view/widest-line-cached.ts`},
		// esbuild is the bench's own tool, loaded by the parent only: never bundled.
		external: ['esbuild'],
		banner: {js: "import {createRequire as benchCreateRequire} from 'node:module'; const require = benchCreateRequire(import.meta.url);"},
		legalComments: 'none',
		logLevel: 'warning',
		logOverride: {'assign-to-define': 'silent'},
	});
	return {file: `${outdir}/run.js`, remove: () => rmSync(outdir, {recursive: true, force: true})};
}
