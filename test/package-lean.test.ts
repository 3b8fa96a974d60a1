import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {asciiSource} from '../scripts/ascii-output.mjs';
import {sharedBundleOptions} from '../scripts/bundle-options.mjs';
import {freshBuiltCli} from './helpers/built-cli.js';
import {runNode} from './helpers/run-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What people install: `npm run build` bundles every dependency into dist/, so `npm install -g` of
 * the package must not download them again (`dependencies` may hold only what the bundle leaves
 * external), must run nothing at install, and carries its licence and the bundled libraries'.
 */

type Manifest = {license?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; files?: string[]};
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

test('dependencies hold only what the bundle leaves external; the rest are devDependencies', () => {
	const external = new Set(sharedBundleOptions.external ?? []);
	const installed = Object.keys(manifest.dependencies ?? {});
	assert.deepEqual(
		installed.filter((name) => !external.has(name)),
		[],
		'bundled, so not installed again',
	);
	// The libraries the CLI is built from are still declared, for the build and the tests.
	for (const name of ['ink', 'react', 'zod', 'undici', 'ws', 'meow']) assert.ok(manifest.devDependencies?.[name], `${name} in devDependencies`);
	assert.deepEqual(manifest.files?.[0], 'dist');
});

type Packed = {files: Array<{path: string}>};

test('the published package runs nothing at install: no install script, nothing npm would run on install', () => {
	const scripts = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {scripts?: Record<string, string>}).scripts ?? {};
	// npm runs these when the package is installed (prepare also for a git or folder install).
	for (const name of ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare']) assert.equal(scripts[name], undefined, `package.json must not have a ${name} script`);
	assert.ok(scripts['prepack'], 'the bundle is built when the package is packed, on the publisher’s machine');
});

test('what npm pack ships: the bundle, its third-party notices, the licence, the readme, and nothing else', () => {
	freshBuiltCli();
	const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})) as Packed[];
	const paths = packed!.files.map((file) => file.path).sort();
	const other = paths.filter((path) => !/^dist\/chunks\/[\w-]+\.js$/.test(path));
	assert.deepEqual(other, ['LICENSE', 'dist/THIRD-PARTY-NOTICES.md', 'dist/bin.cjs', 'dist/cli.js', 'package.json', 'readme.md']);
	assert.ok(paths.length > other.length, 'the chunks the bin imports');
	assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} /);
	assert.equal(manifest.license, 'MIT');
	// Every library the bundle is built from is named with its licence text.
	const notices = readFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
	for (const name of ['ink', 'react', 'react-reconciler', 'yoga-layout', 'undici', 'ws', 'zod', 'meow', 'ink-text-input', 'ink-select-input', 'string-width', '@alcalzone/ansi-tokenize', 'diff']) {
		assert.match(notices, new RegExp(`^## ${name.replace('/', '\\/')} \\d+\\.\\d+\\.\\d+ \\((?:MIT|ISC|BSD-3-Clause|Apache-2\\.0)\\)\\n\\n\\S`, 'm'), `${name} and its licence in the notices`);
	}
});

test('every file of the bundle is ASCII, so Node reads each as a one-byte string', () => {
	freshBuiltCli();
	const files = readdirSync(join(root, 'dist'), {recursive: true, withFileTypes: true}).filter((entry) => entry.isFile() && /\.c?js$/.test(entry.name));
	assert.ok(files.length > 10, 'bin.cjs, cli.js and its chunks');
	for (const entry of files) {
		const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
		assert.equal(/[^\u0000-\u007F]/.exec(text)?.index, undefined, `${entry.name}: a character past ASCII`);
	}
	// What the build did to them: comments escaped, the rest left as esbuild wrote it.
	assert.match(readFileSync(join(root, 'source/format/graphemes.ts'), 'utf8'), /\/\/ ✓ and ✗/);
	assert.ok(files.some((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8').includes('// \\u2713 and \\u2717')), 'the comment kept, escaped');
});

test('the ASCII pass escapes comments and refuses a character it cannot escape safely', () => {
	const source = 'const a = 1; // ✓ done\n/* café — 👍 */\nexport const b = "x";\n';
	const ascii = asciiSource(source);
	assert.equal(ascii, 'const a = 1; // \\u2713 done\n/* caf\\u00e9 \\u2014 \\ud83d\\udc4d */\nexport const b = "x";\n');
	assert.equal(asciiSource(ascii), ascii, 'ASCII already: unchanged');
	assert.throws(() => asciiSource('export const r = / · $/;\n'), /outside a comment \(line 1\).*\\u escape in the source/);
	assert.throws(() => asciiSource('const x = 1;\nexport const r = String.raw`é`;\n'), /outside a comment \(line 2\)/);
	// A line separator ends a line comment: escaped, it would hide the code after it.
	assert.throws(() => asciiSource('// note\u2028export const c = 1;\n'), /outside a comment/);
});

test('the executable is one small CommonJS file that needs only Node’s own modules before it imports the CLI', async () => {
	freshBuiltCli();
	const bin = readFileSync(join(root, 'dist', 'bin.cjs'), 'utf8');
	assert.match(bin, /^#!\/usr\/bin\/env node\n/);
	// CommonJS: no static import or export (an ES module loads a few ms later, on every `--version`).
	assert.equal(/^\s*(?:import|export)\s/m.exec(bin)?.[0], undefined);
	const required = [...bin.matchAll(/\brequire\("([^"]+)"\)|\brequire\('([^']+)'\)/g)].map((match) => match[1] ?? match[2]);
	assert.ok(required.length >= 2, `requires ${required.join(', ')}`);
	assert.deepEqual(required.filter((name) => !name!.startsWith('node:')), [], 'only Node’s own modules');
	assert.deepEqual([...bin.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => match[1]), ['./cli.js'], 'the CLI, loaded after the settings');
	assert.ok(bin.length < 8 * 1024, `${bin.length} bytes`);
	const version = await runNode([join(root, 'dist', 'bin.cjs'), '--version'], {cwd: root, timeoutMs: 30_000});
	assert.equal(version.code, 0, version.stderr);
	assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string}).version);
});
