/**
 * The single executable's first module (`dist/agent-tui-linux-x64`, built by scripts/package.mjs
 * with Node's `--build-sea`): what bin.ts is to the npm package. It is small, so `--version` is
 * answered before the app is read; the app (source/cli.tsx and everything it imports, one script)
 * is an asset of the executable, compiled here with V8's code cache made when the executable was
 * built (the `app.cache` asset): Node's compile cache works on files, and there are none.
 *
 * Outside an executable (only while scripts/package.mjs builds one) the app and the cache are
 * files named by AGENT_TUI_SEA_APP and AGENT_TUI_SEA_CODE_CACHE, and the cache is written, not read.
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {getAsset, getRawAsset, isSea} from 'node:sea';
import {pathToFileURL} from 'node:url';
import v8 from 'node:v8';
import {Script} from 'node:vm';
import {embeddedPackage} from './config/embedded-package.js';
import {answerVersionAlone, setLaunchEnvironment} from './launch-settings.js';

setLaunchEnvironment();
answerVersionAlone(() => embeddedPackage?.version ?? 'unknown');

/** The code cache, which an executable built for another architecture goes without. */
function cachedData(): {cachedData?: Uint8Array} {
	try {
		return {cachedData: new Uint8Array(getRawAsset('app.cache'))};
	} catch {
		return {};
	}
}

/** The app as scripts/package.mjs wraps it: Node's require for its built-in modules, and what `import.meta` stood for. */
type App = (require: NodeJS.Require, importMeta: {url: string}) => Promise<void>;

const inExecutable = isSea();
const source = inExecutable ? getAsset('app.js', 'utf8') : readFileSync(process.env.AGENT_TUI_SEA_APP ?? '', 'utf8');
const script = new Script(source, {filename: 'agent-tui-app.js', ...(inExecutable ? cachedData() : {})});
// Made as the process exits, the cache holds every function the run compiled, not only the
// script's top level: scripts/package.mjs runs the commands whose code a launch needs first.
const cacheFile = inExecutable ? undefined : process.env.AGENT_TUI_SEA_CODE_CACHE;
if (cacheFile) {
	process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
	// V8 accepts a cache only under the flags it was made with: the heap settings the dashboard
	// makes after its first frame (memory-profile.ts) are left out of the run that makes it.
	v8.setFlagsFromString = () => {};
}
const app = script.runInThisContext() as App;
// The CLI reports its own errors and sets the exit code; a failure to load it at all is Node's to print.
void app(require, {url: pathToFileURL(process.execPath).href});
