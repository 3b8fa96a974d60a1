import {EventEmitter} from 'node:events';
import type {ReactElement} from 'react';
import {preferMemoryOverSpeed} from '../source/config/memory-profile.js';
// The same in-memory TTY stdin the UI tests use.
import {FakeStdin as MemoryStdin} from '../test/helpers/fake-stdin.js';

export {MemoryStdin};

/**
 * Ink rendering into memory for measurements. `debug` mode writes every frame whole and at once
 * (no frame-rate throttle), so the time from a key to the frame it causes is what React and Ink
 * spend, not a timer. Import only after `prepareInk()` (Ink reads the CI flag when loaded).
 */

export function prepareInk(): void {
	// As the product runs (bin.ts): React's production build, not its development checks, and
	// V8's heap sized for memory.
	process.env['NODE_ENV'] = 'production';
	preferMemoryOverSpeed();
	// Ink draws nothing until exit when it believes it runs in CI.
	delete process.env['CI'];
	delete process.env['CONTINUOUS_INTEGRATION'];
	// Colours as in a terminal (16 are all the dashboard uses): the bench's stdout is a pipe, and
	// without this every frame would be measured without its colour codes.
	process.env['FORCE_COLOR'] ??= '1';
}

export class MemoryStdout extends EventEmitter {
	isTTY = true;
	writes = 0;
	bytes = 0;
	last = '';
	constructor(
		public columns: number,
		public rows: number,
	) {
		super();
	}
	write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		this.writes++;
		this.bytes += Buffer.byteLength(text);
		if (text.length > 0) {
			this.last = text;
			this.emit('frame', text);
		}
		const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
		callback?.();
		return true;
	};
}

export type Mounted = {stdout: MemoryStdout; stdin: MemoryStdin; unmount(): void};

export async function mount(tree: ReactElement, size: {columns: number; rows: number}, options: {debug?: boolean; stdout?: NodeJS.WriteStream} = {}): Promise<Mounted> {
	const {render} = await import('ink');
	// As the app does before its first render (source/terminal/render-speedups.ts).
	const {installRenderSpeedups} = await import('../source/terminal/render-speedups.js');
	installRenderSpeedups();
	const stdout = new MemoryStdout(size.columns, size.rows);
	const stdin = new MemoryStdin();
	const instance = render(tree, {
		stdout: (options.stdout ?? stdout) as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: new MemoryStdout(size.columns, size.rows) as unknown as NodeJS.WriteStream,
		debug: options.debug ?? true,
		exitOnCtrlC: false,
		patchConsole: false,
		maxFps: 15,
		incrementalRendering: false,
	});
	return {
		stdout,
		stdin,
		unmount() {
			instance.unmount();
			instance.cleanup();
		},
	};
}

/**
 * Press a key and resolve with the ms until Ink wrote the frame it caused (the first written frame
 * `until` accepts), timed at that write. It waits for the write as an event rather than looking
 * between turns of the event loop: a loop of `setImmediate` promises spins thousands of times
 * while a request is out (12,000–16,000 turns for one stored-history open, 4 MB of promises), and
 * the collections of that garbage land inside the figure it measures.
 */
export async function keyToFrame(mounted: Mounted, key: string, until: (frame: string) => boolean = () => true, timeoutMs = 5000): Promise<number> {
	const started = performance.now();
	return new Promise((resolve, reject) => {
		const check = (frame: string) => {
			if (!until(frame)) return;
			const ms = performance.now() - started;
			stop();
			resolve(ms);
		};
		const timer = setTimeout(() => {
			stop();
			reject(new Error(`no frame after ${JSON.stringify(key)} within ${timeoutMs} ms`));
		}, timeoutMs);
		const stop = () => {
			clearTimeout(timer);
			mounted.stdout.off('frame', check);
		};
		mounted.stdout.on('frame', check);
		mounted.stdin.write(key);
	});
}

export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
