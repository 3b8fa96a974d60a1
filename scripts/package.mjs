import {execFileSync, spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {builtinModules, createRequire} from 'node:module';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {basename, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Script} from 'node:vm';
import {build} from 'esbuild';
import {asciiSource} from './ascii-output.mjs';
import {buildInputsHash} from './build-inputs.mjs';
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
 * - the asset `app.cache`: V8's code cache for app.js, made by the same Node binary running the
 *   demo to its first frame at build time (codeCache). A binary of another architecture cannot run here: the arm64
 *   executable goes without it, and compiles the app on every start.
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
const builtins = {
	name: 'agent-tui-sea-builtins',
	setup(context) {
		const names = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
		// `require()` calls stay as they are: they get the require given to the app.
		context.onResolve({filter: /^[\w:/]+$/}, ({path, kind}) => (names.has(path) && kind !== 'require-call' ? {path, namespace: 'node-builtin'} : undefined));
		context.onLoad({filter: /.*/, namespace: 'node-builtin'}, ({path}) => {
			const exported = Object.keys(createRequire(import.meta.url)(path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
			const contents = `const m = require(${JSON.stringify(path)});\nexport default m;\n${exported.map((name) => `export const ${name} = m.${name};`).join('\n')}\n`;
			return {contents, loader: 'js'};
		});
	},
};

async function bundleApp(work) {
	// Without the package's banner (an import of node:module): the app is given its require.
	const options = {...sharedBundleOptions};
	delete options.banner;
	const {metafile} = await build({
		...options,
		metafile: true,
		absWorkingDir: root,
		entryPoints: [join(root, 'source/cli.tsx')],
		outfile: join(work, 'app.mjs'),
		splitting: false,
		plugins: [...options.plugins, builtins],
		define: {...options.define, 'import.meta': 'agentTuiImportMeta', AGENT_TUI_EMBEDDED_PACKAGE: embeddedPackage},
	});
	const text = readFileSync(join(work, 'app.mjs'), 'utf8');
	// A dynamic import would look for a file (outside comments: JSDoc types spell `import('…')`).
	const dynamicImport = /^(?!\s*(?:\*|\/\/)).*\bimport\(/m.exec(text);
	if (dynamicImport) throw new Error(`package: the app bundle still imports at run time: ${JSON.stringify(dynamicImport[0].slice(0, 200))}`);
	// A one-byte string for V8, as the package's chunks are (scripts/ascii-output.mjs).
	const app = asciiSource(`(async function (require, agentTuiImportMeta) {\n${text}\n})`, 'app.js');
	// Compiled as the executable will: a static import or export left would be a SyntaxError here.
	new Script(app, {filename: 'app.js'});
	writeFileSync(join(work, 'app.js'), app);
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

async function bundleMain(work) {
	await build({
		entryPoints: [join(root, 'source/executable.ts')],
		outfile: join(work, 'main.cjs'),
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: sharedBundleOptions.target,
		define: {AGENT_TUI_EMBEDDED_PACKAGE: embeddedPackage},
		legalComments: 'none',
		logLevel: 'warning',
	});
}

/**
 * V8's code cache for app.js, made by the very Node binary the executable is made from, as the
 * app exits after a run: it holds every function that run compiled, not only the top level that
 * `useCodeCache` would. The run: the demo dashboard to its first frame in tmux (then `q`), else,
 * without tmux, a headless listing of the demo.
 */
async function codeCache(work, node) {
	const cache = join(work, 'app.cache');
	const env = {...process.env, AGENT_TUI_SEA_APP: join(work, 'app.js'), AGENT_TUI_SEA_CODE_CACHE: cache, NODE_OPTIONS: ''};
	// The dashboard as a person meets it: in CI, Ink (and view/terminal-screen.ts) would draw non-interactively.
	delete env.CI;
	delete env.CONTINUOUS_INTEGRATION;
	const main = join(work, 'main.cjs');
	if (spawnSync('tmux', ['-V']).status !== 0) {
		execFileSync(node, [main, 'conversations', '--demo', '--json'], {env, stdio: 'ignore'});
		return accepted(cache, work, node);
	}
	const socket = `agent-tui-package-${process.pid}`;
	const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8', env});
	const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
	tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'app', '-x', '80', '-y', '24', `${quote(node)} ${quote(main)} --demo`);
	try {
		await until(() => /Conversations \(\d+\)/.test(tmux('capture-pane', '-p', '-t', 'app')), 'the demo dashboard drawn');
		tmux('send-keys', '-t', 'app', 'q');
		await until(() => existsSync(cache), 'the code cache written');
	} finally {
		spawnSync('tmux', ['-L', socket, 'kill-server']);
	}
	return accepted(cache, work, node);
}

/** The cache as a fresh start of that binary takes it: V8 ignores a cache it refuses, silently and slowly. */
function accepted(cache, work, node) {
	const check = `const s = new (require('node:vm').Script)(require('node:fs').readFileSync(${JSON.stringify(join(work, 'app.js'))}, 'utf8'), {filename: 'agent-tui-app.js', cachedData: require('node:fs').readFileSync(${JSON.stringify(cache)})}); process.stdout.write(String(s.cachedDataRejected));`;
	const rejected = execFileSync(node, ['-e', check], {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}});
	if (rejected !== 'false') throw new Error(`package: V8 refuses the code cache made for the app (cachedDataRejected: ${rejected})`);
	return cache;
}

async function until(check, what, timeoutMs = 60_000) {
	const started = Date.now();
	while (!check()) {
		if (Date.now() - started > timeoutMs) throw new Error(`package: ${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

async function executable(work, arch) {
	const node = nodeBin(arch);
	const native = arch === 'x64' && process.arch === 'x64';
	const output = join(dist, `agent-tui-linux-${arch}`);
	const config = join(work, `sea-${arch}.json`);
	const assets = {'app.js': join(work, 'app.js'), ...(native ? {'app.cache': await codeCache(work, node)} : {})};
	writeFileSync(config, JSON.stringify({main: join(work, 'main.cjs'), output, executable: node, mainFormat: 'commonjs', useCodeCache: native, disableExperimentalSEAWarning: true, assets}, null, '\t'));
	// --build-sea with the x64 binary of the same version: its code cache must come from that V8.
	execFileSync(native ? node : nodeBin('x64'), ['--build-sea', config], {stdio: ['ignore', 'ignore', 'inherit']});
	const hash = createHash('sha256').update(readFileSync(output)).digest('hex');
	writeFileSync(`${output}.sha256`, `${hash}  ${basename(output)}\n`);
	// What it was built from (scripts/build-inputs.mjs), for the test that runs it.
	writeFileSync(`${output}.build-inputs`, `${inputs}\n`);
	process.stdout.write(`package: ${output} (${native ? 'with its code cache' : 'without a code cache: built on another architecture'})\n`);
}

const inputs = buildInputsHash();
const work = mkdtempSync(join(tmpdir(), 'agent-tui-package-'));
try {
	mkdirSync(dist, {recursive: true});
	await bundleMain(work);
	notices(await bundleApp(work));
	await executable(work, 'x64');
	await executable(work, 'arm64');
} finally {
	if (!process.env.AGENT_TUI_PACKAGE_KEEP) rmSync(work, {recursive: true, force: true});
}
