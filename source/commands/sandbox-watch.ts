import {setTimeout as sleep} from 'node:timers/promises';
import {sameId} from '../wire/ids.js';
import type {Sandbox} from '../wire/schemas/app.js';
import {MissingError} from './exit-codes.js';
import type {Server} from './server.js';

/**
 * Pause and resume return as soon as the server accepted them; the status changes afterwards
 * (docs/service-behaviour.md §1.2). These helpers look the sandbox up and watch it for a short while so
 * the command can say what actually happened instead of guessing.
 */

export async function findSandbox(server: Server, id: string): Promise<Sandbox> {
	const [sandbox] = await server.app.getSandboxes([id]);
	if (!sandbox) throw new MissingError(`no sandbox with id ${id}`);
	return sandbox;
}

/** Polls until the status is one of `wanted` or the time is up; returns the last state seen. */
export async function watchSandbox(
	server: Server,
	id: string,
	wanted: readonly string[],
	options: {timeoutMs: number; intervalMs: number},
): Promise<Sandbox | null> {
	const deadline = Date.now() + options.timeoutMs;
	let last: Sandbox | null = null;
	for (;;) {
		const [sandbox] = await server.app.getSandboxes([id]);
		last = sandbox ?? null;
		if (!last || wanted.includes(last.status) || Date.now() >= deadline) return last;
		await sleep(options.intervalMs);
	}
}

/** Sandboxes that were not PAUSED in `before` and are now. */
export function newlyPaused(before: readonly Sandbox[], after: readonly Sandbox[], except: string): Sandbox[] {
	return after.filter(
		(sandbox) => !sameId(sandbox.id, except) && sandbox.status === 'PAUSED' && before.some((old) => sameId(old.id, sandbox.id) && old.status !== 'PAUSED'),
	);
}

/**
 * The sandboxes that were RUNNING in `before` (not `except`) and went PAUSED: looked up until one
 * has, or `graceMs` passed (the service's cap pause can land after the resumed sandbox runs).
 */
export async function watchForCapPause(server: Server, before: readonly Sandbox[], except: string, graceMs: number): Promise<Sandbox[]> {
	const running = before.filter((sandbox) => !sameId(sandbox.id, except) && sandbox.status === 'RUNNING');
	if (running.length === 0) return [];
	const deadline = Date.now() + graceMs;
	for (;;) {
		const found = (await server.app.getSandboxes(running.slice(0, 100).map((sandbox) => sandbox.id))).filter((sandbox): sandbox is Sandbox => sandbox !== null);
		const paused = newlyPaused(before, found, except);
		if (paused.length > 0 || Date.now() >= deadline) return paused;
		await sleep(500);
	}
}
