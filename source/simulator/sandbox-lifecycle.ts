import type {SimSandbox} from './world-types.js';
import type {World} from './world.js';

/**
 * Sandbox status changes. Like the hosted service (docs/service-behaviour.md §1.2), pause and resume
 * return at once and the status changes a moment later; resume and start first pause the oldest
 * other sandboxes so at most `maxRunningSandboxes` run.
 */

function settle(world: World, sandbox: SimSandbox, run: () => void): void {
	world.timers.cancel(sandbox.transition);
	sandbox.transition = world.timers.after(world.options.sandboxTransitionMs, () => {
		sandbox.transition = undefined;
		run();
	});
}

/** Stops serving now: its agent server and sockets go away with it. */
function stopNow(world: World, sandbox: SimSandbox, status: 'PAUSED' | 'MISSING'): void {
	world.timers.cancel(sandbox.transition);
	sandbox.transition = undefined;
	sandbox.status = status;
	world.runtimeStopped(sandbox);
}

/** pause_old_sandboxes(max - 1): the real service does this synchronously before it starts or resumes one. */
export function enforceCap(world: World, keep: SimSandbox | null): void {
	const others = world
		.sandboxList()
		.filter((sandbox) => sandbox !== keep && (sandbox.status === 'RUNNING' || sandbox.status === 'STARTING'))
		.sort((a, b) => a.createdAt - b.createdAt);
	while (others.length >= world.options.maxRunningSandboxes) stopNow(world, others.shift()!, 'PAUSED');
}

export function markRunning(world: World, sandbox: SimSandbox): void {
	world.timers.cancel(sandbox.transition);
	sandbox.transition = undefined;
	enforceCap(world, sandbox);
	sandbox.status = 'RUNNING';
}

export function startSandbox(world: World, specId: string): SimSandbox {
	enforceCap(world, null);
	const sandbox = world.addSandbox({specId, status: 'STARTING', createdAt: world.now()});
	settle(world, sandbox, () => markRunning(world, sandbox));
	return sandbox;
}

/** False when the runtime is gone (the real service reports that as 404). */
export function pauseSandbox(world: World, sandbox: SimSandbox): boolean {
	if (sandbox.status === 'MISSING' || sandbox.status === 'ERROR') return false;
	if (sandbox.status === 'PAUSED' && !sandbox.transition) return true;
	settle(world, sandbox, () => stopNow(world, sandbox, 'PAUSED'));
	return true;
}

export function resumeSandbox(world: World, sandbox: SimSandbox): boolean {
	if (sandbox.status === 'MISSING' || sandbox.status === 'ERROR') return false;
	if (sandbox.status === 'RUNNING' && !sandbox.transition) return true;
	enforceCap(world, sandbox);
	settle(world, sandbox, () => {
		sandbox.status = 'STARTING';
		settle(world, sandbox, () => markRunning(world, sandbox));
	});
	return true;
}

export function deleteSandbox(world: World, sandbox: SimSandbox): void {
	stopNow(world, sandbox, 'MISSING');
}
