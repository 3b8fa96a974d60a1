import {readFile} from 'node:fs/promises';
import {applyPatch, patchFor} from '../source/boundary/source-patches.mjs';
import {fileURLToPath} from 'node:url';

/**
 * What the single executable's startup snapshot holds (scripts/package.mjs, `useSnapshot`): the
 * app's modules evaluated at build time, so a launch deserialises a heap instead of compiling and
 * running them. Two things cannot be in a snapshot and wait for the launch:
 * - yoga's WebAssembly instance: `yoga-layout` (which awaits `loadYoga()` at its top level) is
 *   replaced by a module whose default export is filled by `initYoga()`, before the CLI runs;
 * - source/cli.tsx itself, whose top level runs the CLI: it is imported by `agentTuiRun()`.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

/** Modules the dashboard and the headless listing load, evaluated when the snapshot is made. */
const evaluatedAtBuild = [
	'./config/file-permissions.js',
	'./config/config-file.js',
	'./config/embedded-package.js',
	'./config/paths.js',
	'./config/resolve.js',
	'./commands/exit-codes.js',
	'./commands/help.js',
	'./commands/command-help.js',
	'./commands/io.js',
	'./commands/invocation.js',
	'./commands/signals.js',
	'./commands/dashboard.js',
	'./commands/key-setup.js',
	'./config/poll-tuning.js',
	'./view/app.js',
	'./commands/run-headless.js',
	'./commands/server.js',
];

export const snapshotEntry = () => ({
	contents: [
		"import {initYoga} from 'agent-tui-yoga-at-launch';",
		// meow's package says it has no side effects: a bare import of it would be dropped.
		"import meow from 'meow';",
		...refreshAtLaunch.imports,
		...evaluatedAtBuild.map((path) => `import ${JSON.stringify(path)};`),
		'globalThis.agentTuiRun = async () => {',
		...refreshAtLaunch.calls.map((call) => `\t${call}`),
		'\tawait initYoga();',
		'\tvoid meow;',
		"\tawait import('./cli.tsx');",
		'};',
	].join('\n'),
	resolveDir: `${root}source`,
	sourcefile: 'snapshot-entry.js',
	loader: 'js',
});

/** `yoga-layout` whose instance is made at launch (`initYoga()`), not as the module loads. */
export const yogaAtLaunch = {
	name: 'agent-tui-yoga-at-launch',
	setup(context) {
		context.onResolve({filter: /^(yoga-layout|agent-tui-yoga-at-launch)$/}, ({importer}) =>
			importer.includes('yoga-at-launch') ? undefined : {path: 'yoga', namespace: 'agent-tui-yoga-at-launch'},
		);
		context.onLoad({filter: /.*/, namespace: 'agent-tui-yoga-at-launch'}, () => ({
			contents: [
				"import {loadYoga} from 'yoga-layout/load';",
				"export * from 'yoga-layout/load';",
				'const Yoga = {};',
				'export default Yoga;',
				'export async function initYoga() {',
				'\tObject.assign(Yoga, await loadYoga());',
				'}',
			].join('\n'),
			resolveDir: root,
			loader: 'js',
		}));
	},
};

/**
 * Node cannot put its `http` module in a snapshot (its parser binding: "Global handle not
 * serialized … HTTPParser", a fatal error as the snapshot is written). The libraries that read it
 * as they load read it on first use instead; Node's `http` has no `websocketMask`, so ws's
 * check for one is answered as it would be.
 */
const httpOnFirstUse = [
	{
		file: 'undici/lib/core/util.js',
		edits: [
			["const { IncomingMessage } = require('node:http')\n", ''],
			['=== IncomingMessage', "=== require('node:http').IncomingMessage"],
		],
	},
	{
		file: 'undici/lib/dispatcher/client.js',
		edits: [
			["const http = require('node:http')\n", "let httpModule\nconst http = new Proxy({}, { get: (_, key) => (httpModule ??= require('node:http'))[key] })\n"],
			[
				"const getDefaultNodeMaxHeaderSize = http &&\n  http.maxHeaderSize &&\n  Number.isInteger(http.maxHeaderSize) &&\n  http.maxHeaderSize > 0\n  ? () => http.maxHeaderSize\n  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }",
				"const getDefaultNodeMaxHeaderSize = () => { if (http && http.maxHeaderSize && Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize; throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }",
			],
		],
	},
	{file: 'ws/lib/buffer-util.js', edits: [["const { websocketMask, websocketUnmask } = require('http');", 'const { websocketMask, websocketUnmask } = {};']]},
	{
		file: 'ws/lib/websocket.js',
		edits: [
			["const https = require('https');\nconst http = require('http');", "let httpsModule, httpModule;\nconst https = new Proxy({}, { get: (_, key) => (httpsModule ??= require('https'))[key] });\nconst http = new Proxy({}, { get: (_, key) => (httpModule ??= require('http'))[key] });"],
		],
	},
	{file: 'ws/lib/websocket-server.js', edits: [["const http = require('http');", "let httpModule;\nconst http = new Proxy({}, { get: (_, key) => (httpModule ??= require('http'))[key] });"]]},
];

/**
 * What a module computes from the environment or the terminal as it loads would be the build
 * machine's: each such module gets an `agentTuiRefresh()`, which the launch calls (`refreshAtLaunch`
 * in the entry) before the CLI runs, so it reads this process's environment, argv and terminal.
 * - is-in-ci: `CI` / `CONTINUOUS_INTEGRATION` (Ink's interactive mode, write-synchronized);
 * - chalk's supports-color (both copies: Ink's chalk 6, ink-text-input's chalk 5): the
 *   `--color`/`--no-color` flags, FORCE_COLOR and whether stdout/stderr are terminals;
 * - chalk (both copies): the colour level of `chalk` and `chalkStderr`, from those;
 * - figures: the symbols, by whether the terminal shows Unicode (TERM=linux does not).
 */
const atLaunch = [
	{
		file: 'is-in-ci/index.js',
		edits: [["const isInCi = check('CI') || check('CONTINUOUS_INTEGRATION');\n\nexport default isInCi;", "let isInCi = check('CI') || check('CONTINUOUS_INTEGRATION');\n\nexport {isInCi as default};"]],
		append: "export function agentTuiRefresh() {\n\tisInCi = check('CI') || check('CONTINUOUS_INTEGRATION');\n}",
	},
	{
		file: 'chalk/source/vendor/supports-color/index.js',
		edits: [
			['let flagForceColor;\nif (', 'let flagForceColor;\nfunction agentTuiReadFlags() {\nflagForceColor = undefined;\nif ('],
			['\tflagForceColor = 1;\n}\n', '\tflagForceColor = 1;\n}\n}\nagentTuiReadFlags();\n'],
		],
		append: 'export function agentTuiRefresh() {\n\tagentTuiReadFlags();\n\treturn {stdout: createSupportsColor({isTTY: tty.isatty(1)}), stderr: createSupportsColor({isTTY: tty.isatty(2)})};\n}',
	},
	{
		file: 'chalk/source/index.js',
		edits: [['const {stdout: stdoutColor, stderr: stderrColor} = supportsColor;', 'let {stdout: stdoutColor, stderr: stderrColor} = supportsColor;']],
		append: 'export function agentTuiRefresh(fresh) {\n\t({stdout: stdoutColor, stderr: stderrColor} = fresh);\n\tchalk.level = stdoutColor ? stdoutColor.level : 0;\n\tchalkStderr.level = stderrColor ? stderrColor.level : 0;\n}',
	},
	{
		file: 'figures/index.js',
		edits: [['const shouldUseMain = isUnicodeSupported();\nconst figures = shouldUseMain ? mainSymbols : fallbackSymbols;', 'let shouldUseMain = isUnicodeSupported();\nconst figures = {...(shouldUseMain ? mainSymbols : fallbackSymbols)};']],
		append: 'export function agentTuiRefresh() {\n\tshouldUseMain = isUnicodeSupported();\n\tObject.assign(figures, shouldUseMain ? mainSymbols : fallbackSymbols);\n}',
	},
];

/** The entry's code, run first at launch: the modules of `atLaunch` read this process's environment. */
const refreshAtLaunch = {
	imports: [
		"import {agentTuiRefresh as refreshIsInCi} from 'is-in-ci';",
		"import {agentTuiRefresh as supportsColorNow} from '../node_modules/chalk/source/vendor/supports-color/index.js';",
		"import {agentTuiRefresh as refreshChalk} from '../node_modules/chalk/source/index.js';",
		"import {agentTuiRefresh as supportsColorNow5} from '../node_modules/ink-text-input/node_modules/chalk/source/vendor/supports-color/index.js';",
		"import {agentTuiRefresh as refreshChalk5} from '../node_modules/ink-text-input/node_modules/chalk/source/index.js';",
		"import {agentTuiRefresh as refreshFigures} from 'figures';",
	],
	calls: ['refreshIsInCi();', 'refreshChalk(supportsColorNow());', 'refreshChalk5(supportsColorNow5());', 'refreshFigures();'],
};

const patches = [...httpOnFirstUse, ...atLaunch];

export const snapshotPatches = {
	name: 'agent-tui-snapshot-patches',
	setup(context) {
		context.onLoad({filter: /node_modules[\\/](undici|ws|is-in-ci|chalk|figures)[\\/]/}, async ({path}) => {
			const patch = patches.find(({file}) => path.replaceAll('\\', '/').endsWith(`node_modules/${file}`));
			if (!patch) return undefined;
			// After the package's own source patches (bundle-options.mjs), of which this plugin goes first.
			const sourcePatch = patchFor(path);
			let text = sourcePatch ? applyPatch(sourcePatch, await readFile(path, 'utf8')) : await readFile(path, 'utf8');
			for (const [find, replace] of patch.edits) {
				const count = text.split(find).length - 1;
				if (count !== 1) throw new Error(`package: snapshot patch of ${path}: ${JSON.stringify(find.slice(0, 60))} found ${count} times, not once`);
				text = text.replace(find, () => replace);
			}
			if (patch.append) text = `${text}\n${patch.append}\n`;
			return {contents: text, loader: 'js'};
		});
	},
};

/** Node's modules that cannot be in a snapshot: the app's imports of them call through on first use. */
export const loadedOnFirstUse = new Set(['http', 'https', 'http2']);
