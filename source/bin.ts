#!/usr/bin/env node
/**
 * The executable's first module, built as CommonJS (`dist/bin.cjs`, scripts/build.mjs): Node loads
 * one CommonJS file a few milliseconds sooner than an ES module, and `--version` is answered here.
 * It needs only Node's own modules, which Node has loaded before it runs any code. Two settings
 * must be in place before Ink, React or chalk are evaluated, so the CLI (an ES module,
 * `dist/cli.js`) is loaded with a dynamic import after them:
 * - NODE_ENV=production: React's development build keeps a performance entry per render, so a
 *   long-running dashboard's memory grows without bound (ink#869, react#35761).
 * - chalk ignores NO_COLOR (chalk#547) and decides once, at import: map it (and --no-color) to FORCE_COLOR=0.
 */
import {readFileSync} from 'node:fs';
import {enableCompileCache} from 'node:module';
import {chooseCompileCache} from './config/compile-cache.js';

// (Bracket access: the bundled build defines NODE_ENV at build time and must not see an assignment.)
process.env['NODE_ENV'] ??= 'production';

// The Node lines `engines` admits. An older Node (a global install on Node 20 only warns) would
// fail further on with a TypeError from an API it lacks (module.enableCompileCache, undici 8's
// needs): say what it needs instead, as a configuration error (exit 2).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
	process.stderr.write(`agent-tui: needs Node.js 22.19 or newer (22, 24 or 26); this is ${process.versions.node}. See "Install" in the readme.\n`);
	process.exit(2);
}

// `--version` alone is answered here, before any dependency loads: scripts and shell prompts call
// it often, and meow, zod and the rest cost more than Node itself to start.
if (process.argv.length === 3 && process.argv[2] === '--version') {
	const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string};
	process.stdout.write(`${version}\n`);
	process.exit(0);
}

// V8's code cache on disk (Node's compile cache, kept per Node version and file content): after
// the first run, the 3 MB bundle loads without being compiled again, about a fifth of the time to
// the first frame. Only in a folder no other account can write to (config/compile-cache.ts);
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const compileCache = chooseCompileCache();
if (compileCache.enable) enableCompileCache(compileCache.directory);

// The heap is sized for memory, not speed, once the dashboard has loaded (view/app.tsx): a V8
// flag set earlier would cost every Node module loaded after it its built-in code cache.

const noColorFlag = process.argv.slice(2).some((arg) => arg === '--no-color' || arg === '--color=false');
if ((process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') || noColorFlag) {
	process.env.FORCE_COLOR = '0';
}

// The CLI reports its own errors and sets the exit code; a failure to load it at all is Node's to print.
void import('./cli.js');
