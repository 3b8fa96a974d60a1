import {EventEmitter} from 'node:events';
import {stripVTControlCharacters} from 'node:util';
import {render, type Instance} from 'ink';
import type {ReactElement} from 'react';
import {installRenderSpeedups} from '../../source/terminal/render-speedups.js';
import {guardStdin} from '../../source/boundary/ink-stdin.js';
import {FakeStdin} from './fake-stdin.js';
import {eventually} from './eventually.js';

/**
 * Ink in memory at a chosen terminal size (ink-testing-library's stdout is fixed at 100 columns
 * and has no rows). Same approach: `debug: true` writes every frame whole and unthrottled.
 */

class FakeStdout extends EventEmitter {
	columns: number;
	rows: number;
	isTTY = true;
	frames: string[] = [];
	constructor(columns: number, rows: number) {
		super();
		this.columns = columns;
		this.rows = rows;
	}
	write = (frame: string) => {
		// A mode switch (bracketed paste, the cursor) is no frame.
		if (!/^(?:\u001B\[\?\d+[hl])+$/.test(frame)) this.frames.push(frame);
		return true;
	};
}

export type SizedRender = {
	stdin: FakeStdin;
	stdout: FakeStdout;
	instance: Instance;
	/** The last frame, without colour codes. */
	lastFrame(): string;
	resize(columns: number, rows: number): void;
	unmount(): void;
};

export function renderSized(tree: ReactElement, size: {columns: number; rows: number}, options: {pasteTimeoutMs?: number} = {}): SizedRender {
	// As the app does before its first render: the tests see the renderer that ships.
	installRenderSpeedups();
	const stdout = new FakeStdout(size.columns, size.rows);
	const stdin = new FakeStdin();
	const stderr = new FakeStdout(size.columns, size.rows);
	// Input reaches Ink as in the app: a paste whose end never comes is ended (boundary/ink-stdin.ts).
	const input = guardStdin(stdin as unknown as NodeJS.ReadStream, options.pasteTimeoutMs === undefined ? {} : {timeoutMs: options.pasteTimeoutMs});
	const instance = render(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: input.stream,
		stderr: stderr as unknown as NodeJS.WriteStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	return {
		stdin,
		stdout,
		instance,
		lastFrame: () => stripVTControlCharacters(stdout.frames.at(-1) ?? ''),
		resize(columns, rows) {
			stdout.columns = columns;
			stdout.rows = rows;
			stdout.emit('resize');
		},
		unmount() {
			instance.unmount();
			instance.cleanup();
			input.dispose();
		},
	};
}

/**
 * Poll `frame()` until `predicate` holds (Ink renders asynchronously after input; a fixed sleep
 * is either slow or flaky). Throws with the last frame when it never does.
 */
export async function waitForFrame(
	frame: () => string,
	predicate: (frame: string) => boolean,
	options: {timeoutMs?: number; message?: string} = {},
): Promise<string> {
	const matched = await eventually(frame, options.message ?? 'the frame to match', {until: predicate, timeoutMs: options.timeoutMs ?? 4000, detail: (last) => `last frame:\n${last}`});
	await effectsFlushed();
	return matched;
}

/**
 * Ink writes a frame during React's commit, before the passive effects where a newly mounted
 * text field subscribes to input. A terminal's next key arrives in a later I/O turn, after them;
 * a test that writes the moment the frame matched must wait the same way.
 */
function effectsFlushed(): Promise<void> {
	return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Write keys, then wait until the frame satisfies `predicate`. */
export async function press(
	rendered: Pick<SizedRender, 'stdin' | 'lastFrame'>,
	keys: string,
	predicate: (frame: string) => boolean,
	message?: string,
): Promise<string> {
	rendered.stdin.write(keys);
	return waitForFrame(rendered.lastFrame, predicate, message ? {message} : {});
}


export const keys = {
	up: '\u001B[A',
	down: '\u001B[B',
	enter: '\r',
	escape: '\u001B',
	tab: '\t',
	shiftTab: '\u001B[Z',
	pageUp: '\u001B[5~',
	pageDown: '\u001B[6~',
	ctrlC: '\u0003',
	ctrlR: '\u0012',
};
