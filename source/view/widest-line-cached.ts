import stringWidth from 'string-width';
import {BoundedCache} from './bounded-cache.js';

/**
 * The `widest-line` package with a cache, put in its place by the bundler (scripts/build.mjs,
 * bench/bundle.ts). Ink measures every text node of every frame with it, and string-width takes
 * the slow Intl.Segmenter path for any row holding a symbol (│ … ▸ ◆): at 160x48 that was 2 ms of
 * a 5 ms key press. Same result for the same string; `npm start` (unbundled) uses the original
 * in Ink, while our own line builder (ink-output-speed.ts) calls this one either way.
 */
const widths = new BoundedCache<number>(8000);

export default function widestLine(text: string): number {
	return widths.get(text, () => {
		let widest = 0;
		for (const line of text.split('\n')) widest = Math.max(widest, stringWidth(line));
		return widest;
	});
}
