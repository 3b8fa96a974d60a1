import {createElement} from 'react';
import {createDashboard} from '../source/state/dashboard-store.js';
import {startSimulator} from '../source/simulator/server.js';
import sliceAnsi from 'slice-ansi';
import {diffingStdout} from '../source/terminal/diff-stdout.js';
import {FrameDiff} from '../source/terminal/frame-diff.js';
import {lineUpdate} from '../source/terminal/line-diff.js';
import {findScrollShift, shownAfterShift} from '../source/terminal/scroll-shift.js';
import {computeLayout} from '../source/view/layout.js';
import {AppClient} from '../source/wire/app-client.js';
import {MemoryStdout, mount, settle} from './ink-harness.js';
import {numberedCopy} from './numbered-event.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, times} from './table.js';

/** Full-screen clears: ED 2 (`ESC[2J`), or home then erase-below (`ESC[H ESC[J`). */
const fullClear = /\u001B\[2J|\u001B\[H\u001B\[J/g;

/**
 * Bytes the real dashboard (real store polling the simulator over HTTP, real stream over
 * WebSocket, Ink's renderer at 15 fps, our frame differ, colours on) writes to a 160x48 terminal:
 * idle with polling on, then following a conversation that gets 200 events a second, side by
 * side and zoomed (z); and to an 80x24 one following 5 events a second. "Full repaints" is what
 * Ink itself handed to the differ: every frame whole, at the same frame rate.
 */
export async function benchTraffic(sizes: Sizes): Promise<BenchRow[]> {
	const wide = await measureTerminal(sizes, {columns: 160, rows: 48, rate: sizes.followRate, idle: true});
	// The same stream with the timeline zoomed to the whole width (z): the terminal can then
	// scroll it, and what is left is the new rows themselves.
	const zoomed = await measureTerminal(sizes, {columns: 160, rows: 48, rate: sizes.followRate, zoomed: true});
	// The common case over SSH: 80x24, where the timeline is the full width and new events scroll
	// the terminal (frame-diff.ts), at an agent's usual pace.
	const narrow = await measureTerminal(sizes, {columns: 80, rows: 24, rate: 5});
	return [...wide, ...zoomed, ...narrow];
}

type TerminalRun = {columns: number; rows: number; rate: number; idle?: boolean; zoomed?: boolean};

async function measureTerminal(sizes: Sizes, run: TerminalRun): Promise<BenchRow[]> {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	const sim = await startSimulator({port: 0, seed: 5, tickMs: 0, conversations: 200});
	const terminal = new MemoryStdout(run.columns, run.rows);
	const size = `${run.columns}x${run.rows}${run.zoomed ? ' zoomed (z)' : ''}`;
	let afterDiff = '';
	let inkBytes = 0;
	let inkFrames = 0;
	const counting = Object.assign(terminal, {
		write: (chunk: string | Uint8Array, ...rest: unknown[]) => {
			const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
			afterDiff += text;
			terminal.bytes += Buffer.byteLength(text);
			const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
			callback?.();
			return true;
		},
	});
	const differ = diffingStdout(counting as unknown as NodeJS.WriteStream);
	// What the differ would write if the terminal could scroll the timeline's own columns
	// (DECSLRM margins, which tmux and many terminals lack): per frame, the timeline side's best
	// shift (scroll-shift.ts), then each line's changed cells against what the shift brought
	// there (line-diff.ts), plus ~20 bytes a scroll. Read from a second FrameDiff fed the same frames.
	const shadow = new FrameDiff();
	const {wide, leftWidth} = computeLayout(run.columns, run.rows, run.zoomed);
	let sideBefore: string[] = [];
	let leftBefore: string[] = [];
	let bandBytes = 0;
	// The bytes of the new rows: in each frame, the rows of each pane (the list, the timeline; the
	// whole width when one pane has it) that were not on screen in the frame before, counted
	// whole with their colours. No terminal can be sent less than what it has never shown; it
	// can move what it has (scroll-shift.ts), so this is what a frame costs at best.
	let newRowBytes = 0;
	const countNewRows = (lines: readonly string[], before: readonly string[]) => {
		const shown = new Map<string, number>();
		for (const line of before) shown.set(line, (shown.get(line) ?? 0) + 1);
		for (const line of lines) {
			const left = shown.get(line) ?? 0;
			if (left > 0) shown.set(line, left - 1);
			else newRowBytes += Buffer.byteLength(line);
		}
	};
	const countBandScroll = (chunk: string) => {
		shadow.transform(chunk);
		const side = shadow.lines.map((line) => (wide ? sliceAnsi(line, leftWidth + 1) : line));
		if (wide) {
			const left = shadow.lines.map((line) => sliceAnsi(line, 0, leftWidth + 1));
			countNewRows(left, leftBefore);
			leftBefore = left;
		}
		countNewRows(side, sideBefore);
		const shift = findScrollShift(sideBefore, side);
		for (let row = 0; row < side.length; row++) {
			const shifted = shift ? shownAfterShift(sideBefore, shift, row) : sideBefore[row];
			if (shifted !== side[row]) bandBytes += Buffer.byteLength(shifted === undefined ? side[row]! : lineUpdate(shifted, side[row]!, row));
		}
		if (shift) bandBytes += 20;
		sideBefore = side;
	};
	// What Ink wrote before the differ: the whole frame, every time.
	const inkSide = new Proxy(differ, {
		get(target, property) {
			if (property === 'write') {
				return (chunk: string, ...rest: unknown[]) => {
					inkBytes += Buffer.byteLength(chunk);
					// Frames, not the mode switches written around them.
					if (chunk.length > 64) inkFrames++;
					countBandScroll(chunk);
					return (target.write as (chunk: string, ...rest: unknown[]) => boolean)(chunk, ...rest);
				};
			}
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'simulator', demo: false, secrets: [sim.apiKey]});
	const mounted = await mount(createElement(Dashboard, {store, controller, onQuit: () => undefined, initialView: {zoomed: run.zoomed ?? false}}), {columns: run.columns, rows: run.rows}, {debug: false, stdout: inkSide});
	try {
		const loadStart = Date.now();
		while (store.getSnapshot().conversations.size < 200 && Date.now() - loadStart < 20_000) await settle(50);
		await settle(sizes.quietMs);

		const rows: BenchRow[] = [];
		if (run.idle) {
			// Idle: nothing changes on the server; polling goes on.
			const idleFrom = {bytes: terminal.bytes, text: afterDiff.length};
			await settle(sizes.trafficSeconds * 1000);
			const idleBytes = terminal.bytes - idleFrom.bytes;
			const idleClears = afterDiff.slice(idleFrom.text).match(fullClear)?.length ?? 0;
			const idleRate = idleBytes / sizes.trafficSeconds;
			rows.push({
				area: 'traffic',
				name: `stdout while idle with polling on, ${size} (${sizes.trafficSeconds} s; full-screen clears: ${idleClears})`,
				figure: `${Math.round(idleRate)} B/s`,
				target: '< 1 KB/s, no full clear',
				met: idleRate < 1024 && idleClears === 0,
			});
		}

		// Following: open the first running conversation and feed it events.
		const running = [...store.getSnapshot().conversations.values()].find((row) => row.conversation.execution_status === 'running' && row.conversation.sandbox_status === 'RUNNING');
		if (!running) throw new Error('no running conversation in the simulator');
		// Open it as enter would, and give the timeline the keyboard; it follows by default.
		controller.openTimeline(running.key);
		mounted.stdin.write('3');
		const liveStart = Date.now();
		while (store.getSnapshot().timeline?.stream.state !== 'live' && Date.now() - liveStart < 10_000) await settle(50);
		await settle(Math.min(1000, sizes.quietMs));
		// The conversation's own history, cycled, each copy numbered (numbered-event.ts) so that
		// every row differs as in a real stream.
		const templates = sim.world.events(running.conversation.id).filter((event) => event.kind === 'ObservationEvent' || event.kind === 'ActionEvent' || event.kind === 'MessageEvent');
		if (templates.length < 3) throw new Error('too few events to copy');
		const followFrom = {bytes: terminal.bytes, ink: inkBytes, band: bandBytes, frames: inkFrames, newRows: newRowBytes};
		const started = Date.now();
		const cpuFrom = process.cpuUsage();
		let sent = 0;
		while (Date.now() - started < sizes.trafficSeconds * 1000) {
			const due = Math.floor(((Date.now() - started) / 1000) * run.rate);
			for (; sent < due; sent++) {
				const {id: _id, timestamp: _timestamp, source: _source, ...rest} = templates[sent % templates.length]!;
				sim.world.appendEvent(running.conversation.id, numberedCopy({...rest, kind: String(rest.kind)}, sent));
			}
			await settle(5);
		}
		await settle(300);
		const seconds = (Date.now() - started) / 1000;
		const cpu = process.cpuUsage(cpuFrom);
		const cpuShare = (cpu.user + cpu.system) / 1000 / (seconds * 1000);
		const followBytes = terminal.bytes - followFrom.bytes;
		const repaintBytes = inkBytes - followFrom.ink;
		const received = store.getSnapshot().timeline?.events.length ?? 0;
		const band = bandBytes - followFrom.band;
		const newRows = Math.max(1, newRowBytes - followFrom.newRows);
		const fps = (inkFrames - followFrom.frames) / seconds;
		// Side by side, what scrolling the timeline's own columns would have written (terminals without DECSLRM cannot).
		const bandNote = wide ? `; with the timeline's columns scrolled by the terminal: ${Math.round(band / seconds).toLocaleString('en-US')} B/s, ${times(band / newRows)}` : '';
		const rate = (bytes: number) => `${Math.round(bytes / seconds).toLocaleString('en-US')} B/s`;
		rows.push({
			area: 'traffic',
			name: `stdout following ${run.rate} events/s, ${size} (${received} events in the log; ${fps.toFixed(1)} frames/s; full repaints ${rate(repaintBytes)}, ${times(followBytes / Math.max(1, repaintBytes))}; CPU ${Math.round(cpuShare * 100)}% of a core, simulator included${bandNote})`,
			figure: rate(followBytes),
			target: 'at most 1.3x the bytes of the new rows',
			ratio: `${times(followBytes / newRows)} of ${rate(newRows)}`,
			met: followBytes <= 1.3 * newRows,
		});
		return rows;
	} finally {
		mounted.unmount();
		await controller.close();
		await sim.close();
	}
}
