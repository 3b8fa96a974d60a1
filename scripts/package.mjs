import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {builtinModules, createRequire} from 'node:module';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Script} from 'node:vm';
import {build} from 'esbuild';
import {asciiSource} from './ascii-output.mjs';
import {buildInputsHash} from './build-inputs.mjs';
import {loadedOnFirstUse, snapshotEntry, snapshotPatches, yogaAtLaunch} from './sea-snapshot.mjs';
import {sharedBundleOptions} from './bundle-options.mjs';
import {thirdPartyNotices} from './third-party-notices.mjs';

/**
 * The single executables: `dist/agent-tui-linux-x64` (and `-arm64`), each one file holding Node
 * and the app, for hosts with no Node or an older one, with a `.sha256` beside it. Made with Node
 * 26's own `--build-sea` from the npm registry's `node-linux-<arch>` binary of the version CI tests
 * on (.ci/node), so what runs is the Node that was tested.
 *
 *   npm run package        (node scripts/package.mjs; Node >= 25.5 runs it, the binary is fetched)
 *
 * Inside the executable:
 * - the first module, source/executable.ts (CommonJS, a few kB, with SEA's own code cache), which
 *   answers `--version` before anything else is read, as bin.ts does for the package;
 * - the asset `app.js`: source/cli.tsx and everything it imports, one script wrapped in an async
 *   function (the bundle awaits at its top level: yoga, Ink), Node's built-in modules reached
 *   through the require it is given, and loaded only when the code needing them first runs, as
 *   the package's chunks are;
 * - x64 (PROTOTYPE, docs/performance-startup.md): instead of both, a V8 startup snapshot
 *   (`useSnapshot`) of source/executable-snapshot.ts having evaluated snapshot-app.js
 *   (scripts/sea-snapshot.mjs). The arm64 executable, which cannot run here, keeps the script and
 *   compiles the app on every start.
 * Beside them: agent-tui-linux-THIRD-PARTY-NOTICES.md, the licences of the libraries and of Node
 * inside. Beside each: `.sha256` (sha256sum's format) and `.build-inputs` (the hash of the sources it was
 * built from). The npm package never holds these files (package.json `files`), and `npm run build`
 * leaves them in dist/.
 */

const nodeVersion = '26.10.0';
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const embeddedPackage = JSON.stringify({name: manifest.name, version: manifest.version, description: manifest.description});

const nodeBin = (arch) => join(execFileSync('bash', [join(root, '.ci/node'), nodeVersion, arch], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']}).trim(), 'node');

/**
 * Node's built-in modules as modules of the bundle that take their exports from the require the
 * app is given: esbuild would otherwise leave `import … from "node:fs"` at the top of the file,
 * which a script cannot hold and which would load every built-in module on every start.
 */
const builtins = (snapshot) => ({
	name: 'agent-tui-sea-builtins',
	setup(context) {
		const names = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
		// `require()` calls stay as they are: they get the require given to the app.
		context.onResolve({filter: /^[\w:/]+$/}, ({path, kind}) => (names.has(path) && kind !== 'require-call' ? {path, namespace: 'node-builtin'} : undefined));
		context.onLoad({filter: /.*/, namespace: 'node-builtin'}, ({path}) => {
			const module = createRequire(import.meta.url)(path);
			const exported = Object.keys(module).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
			if (snapshot && loadedOnFirstUse.has(path.replace(/^node:/, ''))) {
				// Not loaded in the snapshot: its functions (the app imports no other value of it) load it when first called.
				const call = (name) => `export function ${name}(...args) { return new.target ? Reflect.construct(load().${name}, args, new.target) : load().${name}.apply(this, args); }`;
				const contents = `let m;\nconst load = () => (m ??= require(${JSON.stringify(path)}));\n${exported.filter((name) => typeof module[name] === 'function').map(call).join('\n')}\n`;
				return {contents, loader: 'js'};
			}
			const contents = `const m = require(${JSON.stringify(path)});\nexport default m;\n${exported.map((name) => `export const ${name} = m.${name};`).join('\n')}\n`;
			return {contents, loader: 'js'};
		});
	},
});

/**
 * The app as one script wrapped in an async function: `app.js`, source/cli.tsx and everything it
 * imports, which runs the CLI as it is evaluated (source/executable.ts); or, with `snapshot`,
 * `snapshot-app.js`, which evaluates the app's modules and leaves the CLI to `agentTuiRun()`
 * (scripts/sea-snapshot.mjs, source/executable-snapshot.ts).
 */
async function bundleApp(work, snapshot = false) {
	const name = snapshot ? 'snapshot-app' : 'app';
	// Without the package's banner (an import of node:module): the app is given its require.
	const options = {...sharedBundleOptions};
	delete options.banner;
	const {metafile} = await build({
		...options,
		metafile: true,
		absWorkingDir: root,
		...(snapshot ? {stdin: snapshotEntry()} : {entryPoints: [join(root, 'source/cli.tsx')]}),
		outfile: join(work, `${name}.mjs`),
		splitting: false,
		plugins: snapshot ? [snapshotPatches, ...options.plugins, yogaAtLaunch, builtins(true)] : [...options.plugins, builtins(false)],
		define: {...options.define, 'import.meta': 'agentTuiImportMeta', AGENT_TUI_EMBEDDED_PACKAGE: embeddedPackage},
	});
	const text = readFileSync(join(work, `${name}.mjs`), 'utf8');
	// A dynamic import would look for a file (outside comments: JSDoc types spell `import('…')`).
	const dynamicImport = /^(?!\s*(?:\*|\/\/)).*\bimport\(/m.exec(text);
	if (dynamicImport) throw new Error(`package: the app bundle still imports at run time: ${JSON.stringify(dynamicImport[0].slice(0, 200))}`);
	// A one-byte string for V8, as the package's chunks are (scripts/ascii-output.mjs).
	const app = asciiSource(`(async function (require, agentTuiImportMeta) {\n${text}\n})`, `${name}.js`);
	// Compiled as the executable will: a static import or export left would be a SyntaxError here.
	new Script(app, {filename: `${name}.js`});
	writeFileSync(join(work, `${name}.js`), app);
	return metafile;
}

/**
 * The licences of what the executables hold: the bundled libraries (as the package's
 * THIRD-PARTY-NOTICES.md) and Node itself, whose LICENSE comes with the registry's binary.
 */
function notices(metafile) {
	const nodeLicense = readFileSync(join(nodeBin('x64'), '..', '..', 'LICENSE'), 'utf8');
	const text = `${thirdPartyNotices(metafile, root).text.trimEnd()}\n\n## Node.js ${nodeVersion}\n\n${nodeLicense}`;
	writeFileSync(join(dist, 'agent-tui-linux-THIRD-PARTY-NOTICES.md'), text);
}

async function bundleMain(work, snapshot = false) {
	await build({
		entryPoints: [join(root, snapshot ? 'source/executable-snapshot.ts' : 'source/executable.ts')],
		outfile: join(work, snapshot ? 'main-snapshot.cjs' : 'main.cjs'),
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: sharedBundleOptions.target,
		define: {AGENT_TUI_EMBEDDED_PACKAGE: embeddedPackage},
		legalComments: 'none',
		logLevel: 'warning',
	});
}

async function executable(work, arch) {
	const node = nodeBin(arch);
	const native = arch === 'x64' && process.arch === 'x64';
	const output = join(dist, `agent-tui-linux-${arch}`);
	const config = join(work, `sea-${arch}.json`);
	// The snapshot is made by running its main under the very binary it goes into: x64 here.
	const sea = native
		? {main: join(work, 'main-snapshot.cjs'), useSnapshot: true, assets: {}}
		: {main: join(work, 'main.cjs'), useCodeCache: false, assets: {'app.js': join(work, 'app.js')}};
	writeFileSync(config, JSON.stringify({...sea, output, executable: node, mainFormat: 'commonjs', disableExperimentalSEAWarning: true}, null, '\t'));
	// --build-sea with the x64 binary of the same version (for arm64: it cannot run here).
	const env = {...process.env, NODE_OPTIONS: '', AGENT_TUI_SEA_APP: join(work, 'snapshot-app.js')};
	execFileSync(native ? node : nodeBin('x64'), ['--build-sea', config], {env, stdio: ['ignore', 'ignore', 'inherit']});
	const hash = createHash('sha256').update(readFileSync(output)).digest('hex');
	writeFileSync(`${output}.sha256`, `${hash}  ${basename(output)}\n`);
	// What it was built from (scripts/build-inputs.mjs), for the test that runs it.
	writeFileSync(`${output}.build-inputs`, `${inputs}\n`);
	process.stdout.write(`package: ${output} (${native ? 'with its startup snapshot' : 'without a snapshot or code cache: built on another architecture'})\n`);
}

const inputs = buildInputsHash();
const work = mkdtempSync(join(tmpdir(), 'agent-tui-package-'));
try {
	mkdirSync(dist, {recursive: true});
	await bundleMain(work);
	await bundleMain(work, true);
	notices(await bundleApp(work));
	await bundleApp(work, true);
	await executable(work, 'x64');
	await executable(work, 'arm64');
} finally {
	if (!process.env.AGENT_TUI_PACKAGE_KEEP) rmSync(work, {recursive: true, force: true});
}
