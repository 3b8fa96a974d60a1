#!/usr/bin/env node
/**
 * The executable's first module, built as CommonJS (`dist/bin.cjs`, scripts/build.mjs): Node loads
 * one CommonJS file a few milliseconds sooner than an ES module, and `--version` is answered here.
 * It needs only Node's own modules, which Node has loaded before it runs any code. The settings
 * of launch-settings.ts must be in place before Ink, React or chalk are evaluated, so the CLI (an
 * ES module, `dist/cli.js`) is loaded with a dynamic import after them. The single executable's
 * first module is executable.ts.
 */
import {readFileSync} from 'node:fs';
import {enableCompileCache} from 'node:module';
import {chooseCompileCache} from './config/compile-cache.js';
import {answerVersionAlone, setLaunchEnvironment} from './launch-settings.js';

setLaunchEnvironment();

// The Node lines `engines` admits. An older Node (a global install on Node 20 only warns) would
// fail further on with a TypeError from an API it lacks (module.enableCompileCache, undici 8's
// needs): say what it needs instead, as a configuration error (exit 2).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
	process.stderr.write(`agent-tui: needs Node.js 22.19 or newer (22, 24 or 26); this is ${process.versions.node}. See "Install" in the readme.\n`);
	process.exit(2);
}

answerVersionAlone(() => (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string}).version);

// V8's code cache on disk (Node's compile cache, kept per Node version and file content): after
// the first run, the 3 MB bundle loads without being compiled again, about a fifth of the time to
// the first frame. Only in a folder no other account can write to (config/compile-cache.ts);
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const compileCache = chooseCompileCache();
if (compileCache.enable) enableCompileCache(compileCache.directory);

// The heap is sized for memory, not speed, once the dashboard has loaded (view/app.tsx): a V8
// flag set earlier would cost every Node module loaded after it its built-in code cache.

// The CLI reports its own errors and sets the exit code; a failure to load it at all is Node's to print.
void import('./cli.js');
