import {FrameDiff} from './frame-diff.js';

/**
 * The terminal's stdout as Ink sees it, with every frame write reduced to the lines that changed
 * (frame-diff.ts). Everything else (size, `resize` events, TTY checks, write callbacks) is the
 * real stream's. Only for the alternate screen, where the frame starts at the top-left cell.
 */
export function diffingStdout(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
	const diff = new FrameDiff();
	// Registered before Ink subscribes, so the repaint after a resize is whole: terminals reflow
	// or clear the screen when it changes size.
	stdout.on('resize', () => diff.invalidate());
	const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		return (stdout.write as (chunk: string, ...rest: unknown[]) => boolean)(diff.transform(text), ...rest);
	};
	return new Proxy(stdout, {
		get(target, property) {
			if (property === 'write') return write;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}
