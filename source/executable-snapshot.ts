/**
 * The x64 single executable's first module when it carries a V8 startup snapshot (scripts/package.mjs,
 * SEA `useSnapshot`). It runs once, at build time: it evaluates the app's modules (the bundle of
 * scripts/sea-snapshot.mjs: the CLI, the dashboard, Ink, React, zod's schemas) and registers what
 * a launch runs on the deserialised heap. A launch then starts from that heap instead of compiling
 * and evaluating the app (what source/executable.ts does, with a code cache, for arm64).
 *
 * What the heap cannot hold or must not freeze is made at launch, in this order: the launch
 * settings (launch-settings.ts, as bin.ts), `--version`, then the bundle's `agentTuiRun()`: the
 * modules that read the environment or the terminal as they load read them again
 * (sea-snapshot.mjs `atLaunch`), yoga's WebAssembly is instantiated, and source/cli.tsx runs.
 */
import {readFileSync} from 'node:fs';
import {pathToFileURL} from 'node:url';
import v8 from 'node:v8';
import {Script} from 'node:vm';
import {embeddedPackage} from './config/embedded-package.js';
import {answerVersionAlone, setLaunchEnvironment} from './launch-settings.js';

/** The bundle as scripts/package.mjs wraps it: Node's require for its built-in modules, and what `import.meta` stood for. */
type App = (require: NodeJS.Require, importMeta: {url: string}) => Promise<void>;
type Launch = {agentTuiRun?: () => Promise<void>};

// At build time, the path of the Node binary being made into the executable (meow's yargs makes a
// require from it as it loads, used only for config files agent-tui never asks it to read); the
// executable's own path at launch (Ink's devtools, never loaded in production, read it).
const importMeta = {url: pathToFileURL(process.execPath).href};
// Every function compiled now, so the snapshot holds its bytecode: a launch would otherwise compile
// each function the first frame calls from source (the code cache of source/executable.ts holds
// those). Measured: 213 ms CPU to the first frame against 233 ms lazily compiled; the heap grows from
// 16.5 to 28.8 MB, which every launch deserialises, `--version` too.
v8.setFlagsFromString('--no-lazy');
const source = readFileSync(process.env.AGENT_TUI_SEA_APP ?? '', 'utf8');
const app = new Script(source, {filename: 'agent-tui-app.js'}).runInThisContext() as App;
// A module failing to load fails the build (an unhandled rejection ends it).
void app(require, importMeta);

v8.startupSnapshot.setDeserializeMainFunction(() => {
	setLaunchEnvironment();
	answerVersionAlone(() => embeddedPackage?.version ?? 'unknown');
	importMeta.url = pathToFileURL(process.execPath).href;
	const run = (globalThis as Launch).agentTuiRun;
	// The CLI reports its own errors and sets the exit code.
	if (run) void run();
	else throw new Error('agent-tui: the executable was built without its app');
});
