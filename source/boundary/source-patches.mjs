import {createHash} from 'node:crypto';

/**
 * The changes this project makes to a dependency's source, as text edits applied when a module is
 * loaded, never to the files on disk: `npm run build` applies them while bundling (an esbuild
 * plugin, scripts/bundle-options.mjs), and the tests and the bench under tsx apply them as Node
 * loads each file (a module hook, scripts/patched-dependencies.mjs, which `npm test` and
 * `npm run bench` import first). So the package has no install script, and the tests run the code
 * that ships.
 *
 * Each patch names the file by package, version and the sha256 of its text as published: a
 * different file (an upgrade) fails the build and the load, naming the file to re-read, and
 * test/boundary.test.ts checks every edit still applies and changes no result.
 *
 * Plain JavaScript (with source-patches.d.mts beside it), so the build script and the module
 * hook can load it before anything compiles TypeScript.
 */

/**
 * Why the grapheme segmenters are made on first use. Seven modules of the bundle made one as they
 * loaded (string-width, wrap-ansi, slice-ansi, ansi-tokenize, Ink's line-update, and two of ours),
 * and the first Intl object of a process sets up ICU's locale data: 20-40 ms of CPU, whichever
 * object comes first. The first frame measures the dashboard's glyphs from a table and tokenizes
 * its rows without a segmenter, so made on first use, none is made before it; the dashboard makes
 * them right after it (warmUpGraphemes, terminal/cached-output.ts), before a key can need one.
 */
const segmenterOnFirstUse = 'Its grapheme segmenter is made by its first use instead of as it loads: the first Intl object of a process costs 20-40 ms of ICU set-up, and the first frame needs none (source/boundary/source-patches.mjs, segmenterOnFirstUse).';

/** The edit that makes `declaration`'s segmenter on first use: an object with the one method used, segment(). */
const madeOnFirstUse = (declaration) => {
	const [, name, parameters] = /^const (\w+) = new Intl\.Segmenter\((.*)\);$/.exec(declaration) ?? [];
	if (name === undefined) throw new Error(`not a segmenter declaration: ${declaration}`);
	return {
		find: declaration,
		replace: `// agent-tui source patch (source/boundary/source-patches.mjs): made by its first use, not as the module loads.\nconst ${name} = {segment(text) { return (this.made ??= new Intl.Segmenter(${parameters})).segment(text); }};`,
	};
};

/** @type {readonly import('./source-patches.d.mts').SourcePatch[]} */
export const sourcePatches = [
	{
		package: 'ink',
		version: '8.0.0',
		file: 'build/squash-text-nodes.js',
		sha256: 'a66185343ca591a7618b5300289a910753c2c8d0299c0e8b5945240263ed69c6',
		why: "Ink 8 finishes the joined text of every Text node on every frame, at every level of nesting: CR LF to LF, sanitizeAnsi (which tokenizes any text holding an escape, so every painted row), three C1 replacements, and tabs expanded. At 160x48 that was the largest difference between a key press on Ink 8 and on Ink 6.8 (a profile of 400 timeline jumps: 78 ms in squashTextNodes itself against 17). The finish depends on the joined text and on whether the node is an ink-text alone: remembered per kind, everything forgotten past 4,096 texts. A text of printable characters and plain SGR colours (every row the dashboard paints) is what sanitizeAnsi returns it as, so it is not tokenized: a page of new rows (a diff page, a jump) tokenized each one once. (sanitizeAnsi has no other caller.)",
		edits: [
			{
				find: "    text = sanitizeAnsi(text.replaceAll('\\r\\n', '\\n'));",
				replace: [
					"    return rememberedFinish(text, node.nodeName === 'ink-text');",
					'};',
					'// agent-tui source patch (source/boundary/source-patches.mjs): the finish, remembered.',
					'const startsWithMark = /^\\p{Mark}/u;',
					'// No control character but tab and newline, and no escape but SGR with digits and semicolons',
					'// (ESC [ 1;36 m), none followed by a combining mark (sanitizeAnsi would move the colour after it).',
					'const onlyPlainColours = (text) => {',
					'    for (let index = 0; index < text.length; index++) {',
					'        const code = text.charCodeAt(index);',
					'        if (code === 0x1b) {',
					'            if (text.charCodeAt(index + 1) !== 0x5b) return false;',
					'            let end = index + 2;',
					'            while (end < text.length && ((text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) || text.charCodeAt(end) === 0x3b)) end++;',
					'            if (text.charCodeAt(end) !== 0x6d) return false;',
					'            if (text.charCodeAt(end + 1) >= 0x300 && startsWithMark.test(text.slice(end + 1, end + 3))) return false;',
					'            index = end;',
					'            continue;',
					'        }',
					'        if (code < 0x20 ? code !== 0x09 && code !== 0x0a : code >= 0x7f && code <= 0x9f) return false;',
					'    }',
					'    return true;',
					'};',
					'const finishedTexts = [new Map(), new Map()];',
					'const rememberedFinish = (text, isInkText) => {',
					'    const texts = finishedTexts[isInkText ? 1 : 0];',
					'    let finished = texts.get(text);',
					'    if (finished === undefined) {',
					'        if (texts.size >= 4096) texts.clear();',
					'        finished = finishText(text, isInkText);',
					'        texts.set(text, finished);',
					'    }',
					'    return finished;',
					'};',
					'const finishText = (text, isInkText) => {',
					'    // The usual text, printable characters and plain colours, is what sanitizeAnsi returns it as: not tokenized.',
					"    text = onlyPlainColours(text) ? text : sanitizeAnsi(text.replaceAll('\\r\\n', '\\n'));",
				].join('\n'),
			},
			{
				find: "    if (node.nodeName === 'ink-text' && text.includes('\\t')) {",
				replace: "    if (isInkText && text.includes('\\t')) {",
			},
		],
	},
	{
		package: 'ink',
		version: '8.0.0',
		file: 'build/reconciler.js',
		sha256: '497b58b448d6cf4342c1808c38fb03588f04e1263db54befb9d96287f364d325',
		why: "After every commit Ink 8 looks for a <Static> node by walking the whole tree (findStaticNode in resetAfterCommit), and the dashboard has none: at 160x48 that walk was 54 ms of a CPU profile of 960 key presses (1,133 ms), about 5% of each. Ink marks a node static in two places (createInstance, commitUpdate); those nodes are kept in a set, each dropped when React lets go of it (detachDeletedInstance, which Ink left empty). The walk runs as before while one of them is attached to a tree, and is skipped when none is: the walk starts at the root, so it finds only an attached node, and without one it finds nothing. A node is attached when its parents lead to an ink-root (Ink's removeChildNode clears the parent of the node it removes).",
		edits: [
			{
				find: 'const findStaticNode = (node) => {',
				replace: [
					'// agent-tui source patch (source/boundary/source-patches.mjs): the nodes Ink has marked static and React',
					'// still holds, so the walk below runs only while one of them is in a tree.',
					'const staticNodes = new Set();',
					'const isAttached = (node) => {',
					'    let top = node;',
					'    while (top.parentNode) top = top.parentNode;',
					"    return top.nodeName === 'ink-root';",
					'};',
					'const mayHoldStaticNode = () => {',
					'    for (const node of staticNodes) {',
					'        if (isAttached(node)) return true;',
					'    }',
					'    return false;',
					'};',
					'const findStaticNode = (node) => {',
				].join('\n'),
			},
			{
				find: '        const staticNode = findStaticNode(rootNode);',
				replace: '        const staticNode = mayHoldStaticNode() ? findStaticNode(rootNode) : undefined;',
			},
			{
				find: "            if (key === 'internal_static') {\n                node.internal_static = true;",
				replace: "            if (key === 'internal_static') {\n                node.internal_static = true;\n                staticNodes.add(node);",
			},
			{
				find: "                if (key === 'internal_static') {\n                    node.internal_static = true;",
				replace: "                if (key === 'internal_static') {\n                    node.internal_static = true;\n                    staticNodes.add(node);",
			},
			{
				find: '    detachDeletedInstance() { },',
				replace: '    detachDeletedInstance(node) {\n        staticNodes.delete(node);\n    },',
			},
		],
	},
	{
		package: 'widest-line',
		version: '6.0.0',
		file: 'index.js',
		sha256: 'c56c70d00610e14d157c1ed4fc3a2b83d96f7e595b1842ba12f3a84217796eb1',
		why: "Ink measures every Text node with widestLine on every frame (build/render-node-to-output.js), uncached, and a row holding one of the dashboard's glyphs takes string-width's slow path (a grapheme segmenter and Unicode-property expressions per cluster): the largest cost of a key press left after the line builder. Same result, remembered; everything forgotten past 8,000 strings.",
		edits: [
			{
				find: 'export default function widestLine(string) {\n\tlet lineWidth = 0;\n',
				replace: [
					'// agent-tui source patch (source/boundary/source-patches.mjs): the result remembered.',
					'const widths = new Map();',
					'',
					'export default function widestLine(string) {',
					'\tlet lineWidth = widths.get(string);',
					'\tif (lineWidth !== undefined) {',
					'\t\treturn lineWidth;',
					'\t}',
					'',
					'\tif (widths.size >= 8000) {',
					'\t\twidths.clear();',
					'\t}',
					'',
					'\tlineWidth = 0;',
					'',
				].join('\n'),
			},
			{
				find: '\treturn lineWidth;\n}',
				replace: '\twidths.set(string, lineWidth);\n\treturn lineWidth;\n}',
			},
		],
	},
	{
		package: 'string-width',
		version: '8.3.0',
		file: 'index.js',
		sha256: 'abc20775da6b552188b098688ebec671e29f5416d6339d3534bb7b016174003e',
		why: `Every width Ink and its helpers measure (measureText, wrap-ansi, cli-truncate, widest-line) goes through string-width, and any string holding one of the dashboard's glyphs (│ ● ▸ ◆ ✓) takes its slow path: a grapheme segmenter, Unicode-property expressions and the East Asian width table per cluster, cold on the first frame (about 75 ms of CPU, profiled). setFastWidth lets installRenderSpeedups put the glyph table (format/table-width.ts) in front: a width, or -1 to go on as before, and only with the default options. Its \`\\p{RGI_Emoji}\` expression, about 20-40 ms to compile, is built on first use instead of at load, and asked only about a cluster that can be an emoji (a title with an accented letter or a CJK character no longer builds it). ${segmenterOnFirstUse}`,
		edits: [
			madeOnFirstUse('const segmenter = new Intl.Segmenter();'),
			{
				find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
				replace: [
					'// agent-tui source patch (source/boundary/source-patches.mjs): built on first use, not at load, and used only',
					'// on a cluster that can be an emoji: every RGI emoji holds an Extended_Pictographic character, a regional',
					'// indicator, a skin tone or the keycap mark.',
					"const mayBeEmoji = /\\p{Extended_Pictographic}|[\\u{1F1E6}-\\u{1F1FF}\\u{1F3FB}-\\u{1F3FF}\\u20E3]/u;",
					"const rgiEmojiRegex = {test(text) { return mayBeEmoji.test(text) && (this.built ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(text); }};",
				].join('\n'),
			},
			{
				find: 'export default function stringWidth(input, options = {}) {\n\tif (typeof input !== \'string\' || input.length === 0) {\n\t\treturn 0;\n\t}\n',
				replace: [
					'// agent-tui source patch (source/boundary/source-patches.mjs): a faster answer for the usual string,',
					'// set by installRenderSpeedups(): a width, or -1 to go on with the full measure below.',
					'let fastWidth;',
					'',
					'export function setFastWidth(measure) {',
					'\tconst previous = fastWidth;',
					'\tfastWidth = measure;',
					'\treturn previous;',
					'}',
					'',
					'export default function stringWidth(input, options = {}) {',
					"\tif (typeof input !== 'string' || input.length === 0) {",
					'\t\treturn 0;',
					'\t}',
					'',
					'\tif (fastWidth !== undefined && options.ambiguousIsNarrow !== false && options.countAnsiEscapeCodes !== true) {',
					'\t\tconst width = fastWidth(input);',
					'\t\tif (width !== -1) {',
					'\t\t\treturn width;',
					'\t\t}',
					'\t}',
					'',
				].join('\n'),
			},
		],
	},
	{
		package: 'wrap-ansi',
		version: '10.0.2',
		file: 'index.js',
		sha256: '0c65e1cad00d994a60eb6755ea7ed1bde4d81d072b0ab83d19a301bf67ca1750',
		why: `Ink wraps and expands tabs with it. ${segmenterOnFirstUse}`,
		edits: [madeOnFirstUse('const segmenter = new Intl.Segmenter();')],
	},
	{
		package: 'cli-truncate/node_modules/slice-ansi',
		version: '10.0.1',
		file: 'tokenize-ansi.js',
		sha256: '511a1f1cbf61497dd4c1310f72641e4d06f36e83389ff9b50b2c070d87292b85',
		why: `Ink truncates text with it (cli-truncate's own copy, the one the bundle holds). ${segmenterOnFirstUse}`,
		edits: [madeOnFirstUse("const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});")],
	},
	{
		package: 'ink',
		version: '8.0.0',
		file: 'build/line-update.js',
		sha256: '3101b3bbf790a845dc0268343f1d5d033ffa6468f2b8ea8947336c03d50d828f',
		why: `Ink's incremental rendering uses it, which the dashboard turns off. ${segmenterOnFirstUse}`,
		edits: [madeOnFirstUse("const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });")],
	},
	{
		package: '@alcalzone/ansi-tokenize',
		version: '0.3.2',
		file: 'build/tokenize.js',
		sha256: '14d08703aecd8dc2bc792b5a9ef1bddea0125b43b34d1927ac86c79e6a481c59',
		why: `Ink's line builder and ours (terminal/cached-output.ts, for each new colour code and character) tokenize with it, and its tokenize walked every string through the segmenter, a colour code or one character too. A string of one UTF-16 unit, and one of ASCII without CR, is walked a unit at a time instead: each unit is a grapheme cluster of its own there (in UAX #29 only CR LF joins within ASCII), so the tokens are the same. ${segmenterOnFirstUse}`,
		edits: [
			madeOnFirstUse('const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });'),
			{
				find: '    for (const { segment, index } of segmenter.segment(str)) {',
				replace: [
					'    // agent-tui source patch (source/boundary/source-patches.mjs): one unit at a time where each unit is a cluster.',
					'    for (const { segment, index } of (str.length === 1 || oneUnitClusters.test(str) ? Array.from(str, (segment, index) => ({ segment, index })) : segmenter.segment(str))) {',
				].join('\n'),
			},
			{
				find: 'export function tokenize(str, endChar = Number.POSITIVE_INFINITY) {',
				replace: '// ASCII without CR: every unit a grapheme cluster of its own.\nconst oneUnitClusters = /^[\\x00-\\x0c\\x0e-\\x7f]*$/;\nexport function tokenize(str, endChar = Number.POSITIVE_INFINITY) {',
			},
		],
	},
	{
		package: 'yoga-layout',
		version: '3.2.1',
		file: 'dist/binaries/yoga-wasm-base64-esm.js',
		sha256: '2cfeda49ae87f57bcd4a5fe433940edefc531a69bd0f83e32759fb5837df205c',
		why: "yoga's loader reads its WebAssembly, a data: URL, with fetch whenever fetch exists: Node then loads and compiles its own copy of undici to decode base64 (about 20 ms of every start-up, profiled). Its own synchronous decoder (wa) is used for a data: URL instead, as it already is where there is no fetch.",
		edits: [
			{
				find: 'function ya(){return w||"function"!=typeof fetch?',
				replace: 'function ya(){return w||"function"!=typeof fetch||ua(H)?',
			},
		],
	},
	{
		package: 'meow',
		version: '14.1.0',
		file: 'build/dependencies.js',
		sha256: 'b8a6bc10fd20a7a5066d87bc3d93a340d58f2dd07bfdc2ee1d96ab9bf47dc446',
		why: "meow's bundled dependencies load normalize-package-data (with semver, hosted-git-info and the SPDX tables) as they load, though meow 14 calls it only when a program asks for its normalized package.json (`cli.pkg`, its own --help and --version), which agent-tui never does: about 7 ms of every start, profiled. It is loaded on the first call instead.",
		edits: [
			{
				find: 'var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);',
				replace: [
					'// agent-tui source patch (source/boundary/source-patches.mjs): loaded by its first call.',
					'let normalizeLoaded;',
					'const normalizePackageData = (...parameters) => (normalizeLoaded ??= getDefaultExportFromCjs(requireNormalize()))(...parameters);',
				].join('\n'),
			},
		],
	},
	{
		package: 'undici',
		version: '8.13.1',
		file: 'lib/dispatcher/client.js',
		sha256: '325d5606f38e7c2b164188cfc214c1832ead3da5e133343177dc6bbfec84ba51',
		format: 'commonjs',
		why: "undici's Client loads its HTTP/2 half (client-h2.js, and with it node:http2 and node:tls) as it loads, though a connection uses it only when TLS negotiates h2. Loaded at start-up it was about a tenth of the launch to the first frame (perf stat: 1.25 G instructions with it, 1.13 G without, against an http:// server). It is loaded by the first connection that needs it instead; nothing else changes.",
		edits: [
			{
				find: "const connectH2 = require('./client-h2.js')",
				replace: "// agent-tui source patch (source/boundary/source-patches.mjs): loaded by the first HTTP/2 connection.\nconst connectH2 = (client, socket) => require('./client-h2.js')(client, socket)",
			},
		],
	},
];

const slashed = (path) => path.replaceAll('\\', '/');

/** The patch for a file at `path` (a path inside some node_modules), if there is one. */
export function patchFor(path) {
	const normalized = slashed(path);
	return sourcePatches.find((patch) => normalized.endsWith(`/node_modules/${patch.package}/${patch.file}`));
}

/** An expression matching the paths of every patched file, for esbuild's onLoad filter. */
const pathPattern = (path) => path.split('/').map((part) => part.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\\\/]');
export const patchedPaths = new RegExp(`[\\\\/]node_modules[\\\\/](?:${sourcePatches.map((patch) => pathPattern(`${patch.package}/${patch.file}`)).join('|')})$`);

/**
 * `text` with the patch's edits applied. Throws when the text is not the file the patch was
 * written for, or an edit does not find its place exactly once: better no build and no test run
 * than a dependency changed in a way nobody has read.
 */
export function applyPatch(patch, text) {
	const sha256 = createHash('sha256').update(text).digest('hex');
	if (sha256 !== patch.sha256) {
		throw new Error(`${patch.package}/${patch.file} is not the file the patch in source/boundary/source-patches.mjs was written for (${patch.package} ${patch.version}): re-read it, then update the patch (${patch.why})`);
	}
	let patched = text;
	for (const edit of patch.edits) {
		const at = patched.indexOf(edit.find);
		if (at === -1 || patched.indexOf(edit.find, at + 1) !== -1) throw new Error(`${patch.package}/${patch.file}: an edit of source/boundary/source-patches.mjs does not find its one place`);
		patched = patched.slice(0, at) + edit.replace + patched.slice(at + edit.find.length);
	}
	// A marker tells a test which copy was loaded: an export of an ES module; a CommonJS module's
	// exports are left as they are, and it is named in a set on globalThis instead.
	const name = JSON.stringify(`${patch.package}/${patch.file}`);
	if (patch.format === 'commonjs') return `${patched}\n;(globalThis[Symbol.for('agent-tui.source-patches')] ??= new Set()).add(${name});\n`;
	return `${patched}\nexport const agentTuiSourcePatch = ${name};\n`;
}
