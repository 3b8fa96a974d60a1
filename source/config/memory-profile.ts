import {setFlagsFromString} from 'node:v8';

/**
 * The V8 heap settings for a dashboard that follows streams for hours: it allocates steadily
 * (every frame read, every event dropped from the window) and holds little.
 *
 * V8 sizes its heap for speed by default: between collections the heap grows well past what is
 * live, and the pages come back slowly. Following 50,000 events of a real conversation's sizes
 * the process stayed at 306–376 MB resident that way; walking 100,014 stored events, 450 MB.
 *
 * `--optimize-for-size` met those rows (195 and 238 MB) but cost speed everywhere: it grows the
 * old generation by a tenth at a time, so ingesting a burst ran dozens of full collections (0.42x
 * of JSON.parse, target 0.5x), and it throws away the bytecode of every function not running at
 * each collection, so a view opened rarely is compiled again (opening a 100,000-event timeline
 * 4.9 → 10–12 ms).
 *
 * Memory saver mode (V8 ≥ 13, Node 24 and 26) compacts and gives pages back like it without
 * discarding bytecode; growing the old generation by half at a time keeps a burst to a few full
 * collections. Measured on Node 26 (`npm run bench -- --only=… --bundled`): ingest 0.57–0.61x of
 * JSON.parse, key to frame at 10 conversations 0.36 ms (0.43 with --optimize-for-size), and every
 * memory row met: stored walk 234 MB, real stream 199 MB, bounded follow 172 MB, 100,000 events
 * on screen 246 MB. Node 22's V8 (12.4) has no memory saver mode and keeps --optimize-for-size:
 * an unknown flag would be refused with a message on stderr, over the dashboard.
 *
 * Set once the dashboard has loaded and rendered (view/app.tsx, after Ink's render), not as the process
 * starts: Node's own modules (tty, crypto, tls, http, http2, zlib, streams) come with V8 code
 * cached inside the node binary, and V8 accepts that cache only under the flags it was made with.
 * Set first, the flags made Node compile each of those modules from source at start-up: importing
 * node:http2, node:zlib and node:tty took 83-167 ms after setting them against 43-67 ms without
 * (Node 26, a loaded machine), and a profile of the dashboard's start showed the difference in
 * Node's module loader. Both settings act from the next collection on, so later is as good.
 */
export function preferMemoryOverSpeed(): void {
	setFlagsFromString(heapFlags(process.versions.v8));
}

export function heapFlags(v8Version: string): string {
	const major = Number.parseInt(v8Version, 10);
	return major >= 13 ? '--memory-saver-mode --heap-growing-percent=50' : '--optimize-for-size';
}
