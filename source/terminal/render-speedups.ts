import {setStringWidthFastPath} from '../boundary/index.js';
import {tableWidth} from '../format/table-width.js';
import {installFastOutput} from './cached-output.js';

let installed = false;

/**
 * Puts the run-time speed-ups in place: Ink's Output.get (cached-output.ts), and the glyph table
 * (format/table-width.ts) in front of string-width. Idempotent; call it before the first render.
 */
export function installRenderSpeedups(): void {
	if (installed) return;
	installed = true;
	installFastOutput();
	setStringWidthFastPath(tableWidth);
}
