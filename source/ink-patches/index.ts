import {setFastWidth} from 'string-width';
import {installFastOutput} from './output-speed.js';

export {warmUpTextMeasures} from './output-speed.js';
import {tableWidth} from './string-width-fast.js';

/**
 * Every change this project makes to Ink and the packages Ink renders with, in one place.
 *
 * Two kinds, both in effect wherever the code runs (`npm start`, the tests, the bundle), since
 * the same patched node_modules are underneath all three:
 * - Source patches in `patches/` (patch-package, applied by `npm ci` / `npm install` through the
 *   `prepare` script, and failing the install when one no longer applies): Ink's sanitizeAnsi
 *   and widest-line remember their answers, string-width builds its emoji expression on first use
 *   and accepts a fast path, yoga-layout decodes its WebAssembly without loading fetch. These
 *   change nothing until a module loads.
 * - What `installInkPatches()` sets at run time, before the first render: Ink's `Output.get`
 *   with caches that outlive a frame (output-speed.ts), and string-width's fast path
 *   (string-width-fast.ts). The app calls it (view/app.tsx), as do the test harnesses.
 *
 * `upstream` lists the exact files these depend on; test/ink-patches.test.ts fails when an
 * installed version differs, so an upgrade means re-reading each one. Ink's own files are also
 * reached from paint.ts (Ink's colorize) and output-speed.ts (Ink's Output class), which is why
 * they live here: nothing else in source/ reaches into node_modules.
 */

export type UpstreamFile = {package: string; version: string; file: string; why: string};

export const upstream: readonly UpstreamFile[] = [
	{package: 'ink', version: '6.8.0', file: 'build/output.js', why: 'Output.prototype.get replaced by fastGet (output-speed.ts), byte-for-byte the same output'},
	{package: 'ink', version: '6.8.0', file: 'build/colorize.js', why: "Ink's colour transform, called ahead of time by paint.ts"},
	{package: 'ink', version: '6.8.0', file: 'build/sanitize-ansi.js', why: 'patched: its result remembered (patches/ink+6.8.0.patch)'},
	{package: 'string-width', version: '8.3.0', file: 'index.js', why: 'patched: lazy RGI_Emoji expression, setFastWidth (patches/string-width+8.3.0.patch)'},
	{package: 'widest-line', version: '6.0.0', file: 'index.js', why: 'patched: its result remembered (patches/widest-line+6.0.0.patch)'},
	{package: 'yoga-layout', version: '3.2.1', file: 'dist/binaries/yoga-wasm-base64-esm.js', why: 'patched: decodes its data: URL without fetch (patches/yoga-layout+3.2.1.patch)'},
];

let installed = false;

/** Puts the run-time patches in place. Idempotent; call it before the first render. */
export function installInkPatches(): void {
	if (installed) return;
	installed = true;
	installFastOutput();
	setFastWidth(tableWidth);
}
