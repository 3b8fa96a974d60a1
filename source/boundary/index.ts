import * as stringWidthModule from 'string-width';

/**
 * The boundary: every place this project relies on a library's internals rather than its
 * documented API, declared in one list. Nothing outside source/boundary/ reaches into
 * node_modules, imports a file a package does not export, or uses a property its types do not
 * declare (test/boundary.test.ts checks the imports of every source file).
 *
 * Each entry names the upstream files by version and content hash, and says what we rely on.
 * test/boundary.test.ts fails when an installed file differs from the one listed (an upgrade),
 * naming what to re-read, and checks each reliance by behaviour where it can: the input emitter
 * delivers keys and pastes, a frame is written the way the frame differ expects, undici's files
 * are the classes its index exports, Ink's Output is reproduced byte for byte.
 *
 * No dependency is patched on disk: the package has no install script. The few changes to a
 * dependency's source are text edits applied as a file is loaded (source-patches.mjs: by the
 * bundler for dist/, by a module hook for the tests and the bench), each named by file hash;
 * terminal/render-speedups.ts sets the rest at run time through the functions here.
 *
 * The boundary is the bottom layer (docs/layers.md): it imports nothing of ours. What we put
 * into a library (a faster `get`, a width table) is ours and is handed in from above.
 */

export type Reach = {
	package: string;
	version: string;
	/** Files of the package we depend on, with the sha256 of each as installed. */
	files: Readonly<Record<string, string>>;
	/** What we rely on, and where. */
	relies: string;
};

export const reaches: readonly Reach[] = [
	{
		package: 'ink',
		version: '8.0.0',
		files: {
			'build/output.js': '5e6c511c0a573f48cd5765d7f1f16583d2595f7b05775608382bdb990b63f225',
		},
		relies:
			"Output (not exported): its `get()` is replaced (ink-output.ts) by fastGet, the same algorithm with caches that outlive a frame (terminal/cached-output.ts); it reads the instance's width, height and operations (write/clip/unclip).",
	},
	{
		package: 'ink',
		version: '8.0.0',
		files: {
			'build/colorize.js': '2fc819afad305522c75fb6bbce8bfb156ca40f91a446a0124d8e8f4215000a80',
		},
		relies: "colorize(text, color, 'foreground') (not exported): what <Text color> does to its text, called ahead of time by ink-paint.ts.",
	},
	{
		package: 'ink',
		version: '8.0.0',
		files: {
			'build/components/App.js': '3900cc2e456c3e6b859d0408a7528144187801fcc6ad1fa9d144044b69a1d3a8',
			'build/input-parser.js': '1bd1c77a804743cc7b584e86ec38cea6d4ebe12641917a1ff724418718870318',
			'build/hooks/use-input.js': '83dfa5f61722355a41564bba5c849a7aa71a11b147968bd0082b83dd4a538eff',
			'build/hooks/use-stdin.js': '20e884d1fa93fd0ff9be0d39c8c1179d01fb9f573ae86df2f90a9f6f44fa04f0',
			'build/reconciler.js': '497b58b448d6cf4342c1808c38fb03588f04e1263db54befb9d96287f364d325',
		},
		relies:
			"Input (ink-input.ts): useStdin() returns the context's `internal_eventEmitter` too (its type hides it); every parsed key or run of text is one 'input' event of a string, emitted to each listener in the order they subscribed, and emitting 'input' ourselves is handled like a read (the key dispatcher feeds keys of one read back through it, one at a time). The reconciler Ink renders with (not exported): its flushSyncWork() commits what earlier keys of the same read asked for before the next key is handled. Ink reads stdin through 'readable' and read(), and its parser holds a bracketed paste until the end marker comes, however long that takes (ink-stdin.ts ends it after a second).",
	},
	{
		package: 'ink',
		version: '8.0.0',
		files: {
			'build/ink.js': '54975ccb060dbc0f155990fe210a62eb00fa648cc89e60e68cb271395feb456a',
			'build/log-update.js': '0336ec176d00780756df0c2b6c365cd2f67118e28d0f9b5383e113fd9f70f285',
			'build/write-synchronized.js': '75008f21c22e928c47aa81856166842902ae8bd4514b2af8d202d7425f10ec53',
		},
		relies:
			"How a frame reaches stdout (ink-frames.ts, read by terminal/frame-diff.ts): one write per frame, the previous frame erased by `eraseLines` (ESC[2K, ESC[1A, ESC[G) in front of the new frame's lines; the cursor, synchronized-output and alternate-screen switches in writes of their own; a frame that changed is bracketed by the synchronized-output begin and end, each a write of its own, directly before and after it (the differ drops the pair for a one-row change).",
	},
	{
		package: 'undici',
		version: '8.13.1',
		files: {
			'lib/dispatcher/agent.js': '817689a2bd6e85d27ab6d6166b918989cb4f7acc08bcae1c3c8e7250ff972b6d',
			'lib/api/api-request.js': 'abb326c4966e8a71e4d1f8d49745d1c6a3813a5c85ce720d2370cb51cbdce8ae',
			'lib/core/errors.js': '79c537740ceec5c546311657a4443c2b52068eb4d5d069dcfa9bb03cccb0b7ee',
		},
		relies:
			"undici-parts.ts loads these three files by path instead of the package's index (which loads fetch, WebSocket, caches and mocks: ~70 ms of every start-up): the Agent class, request() called with the dispatcher as `this`, and the error classes, the same objects the index exports.",
	},
];

/**
 * Puts `measure` in front of string-width's full measure: a width, or -1 to go on as before. Its
 * `setFastWidth` exists where the source patch is applied (the bundle, and tests run with the
 * module hook); elsewhere this does nothing.
 */
export function setStringWidthFastPath(measure: (text: string) => number): void {
	(stringWidthModule as {setFastWidth?: (measure: (text: string) => number) => unknown}).setFastWidth?.(measure);
}
