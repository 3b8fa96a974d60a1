import type {SimSandbox} from './world-types.js';
import type {World} from './world.js';

/**
 * Sandbox status changes. Like the hosted service (docs/service-behaviour.md §1.2), pause and resume
 * return at once and the status changes a moment later; resume and start first pause the oldest
 * other RUNNING sandboxes so at most `maxRunningSandboxes - 1` others run (the service's
 * pause_old_sandboxes: STARTING ones are neither counted nor paused).
 */

/**
 * The service asks for the cap's pause before it resumes or starts, but the paused runtime stops
 * after the resumed one is up (a dashboard showed the paused sandbox RUNNING for most of a minute
 * after the resume was done): the victim goes PAUSED this many transitions later, after the two
 * of a resume (PAUSED, STARTING, RUNNING), so clients must keep watching once the resume is done.
 */
const capPauseTransitions = 3;

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
	sandbox.statusDetail = null;
	world.runtimeStopped(sandbox);
}

/**
 * pause_old_sandboxes(max - 1) (OpenHands openhands/app_server/sandbox/sandbox_service.py): the
 * RUNNING sandboxes other than `keep`, oldest first by created_at, as many paused as it takes to
 * leave `max - 1` running. Asked for now, done later (`capPauseTransitions`).
 */
export function enforceCap(world: World, keep: SimSandbox | null): void {
	const running = world
		.sandboxList()
		.filter((sandbox) => sandbox !== keep && sandbox.status === 'RUNNING')
		.sort((a, b) => a.createdAt - b.createdAt);
	const excess = running.length - (world.options.maxRunningSandboxes - 1);
	for (const victim of running.slice(0, Math.max(0, excess))) {
		world.timers.cancel(victim.transition);
		victim.transition = world.timers.after(world.options.sandboxTransitionMs * capPauseTransitions, () => {
			victim.transition = undefined;
			if (victim.status === 'RUNNING') stopNow(world, victim, 'PAUSED');
		});
	}
}

/** The runtime is up. The service checks its cap when asked to start or resume, not now. */
export function markRunning(world: World, sandbox: SimSandbox): void {
	world.timers.cancel(sandbox.transition);
	sandbox.transition = undefined;
	sandbox.status = 'RUNNING';
	sandbox.statusDetail = null;
}

export function startSandbox(world: World, specId: string): SimSandbox {
	enforceCap(world, null);
	const sandbox = world.addSandbox({specId, status: 'STARTING', createdAt: world.now()});
	settle(world, sandbox, () => markRunning(world, sandbox));
	return sandbox;
}

/**
 * A sandbox the runtime provider cannot act on: gone, failed, or a status it cannot read
 * (UNKNOWN: provider unavailable). The real service reports any runtime-API failure as 404.
 */
function unreachable(sandbox: SimSandbox): boolean {
	return !['STARTING', 'RUNNING', 'PAUSED'].includes(sandbox.status);
}

/** False when the runtime is gone or cannot be reached (the real service reports that as 404). */
export function pauseSandbox(world: World, sandbox: SimSandbox): boolean {
	if (unreachable(sandbox)) return false;
	if (sandbox.status === 'PAUSED' && !sandbox.transition) return true;
	settle(world, sandbox, () => stopNow(world, sandbox, 'PAUSED'));
	return true;
}

export function resumeSandbox(world: World, sandbox: SimSandbox): boolean {
	if (unreachable(sandbox)) return false;
	if (sandbox.status === 'RUNNING' && !sandbox.transition) return true;
	enforceCap(world, sandbox);
	settle(world, sandbox, () => {
		sandbox.status = 'STARTING';
		sandbox.statusDetail = null;
		settle(world, sandbox, () => markRunning(world, sandbox));
	});
	return true;
}

export function deleteSandbox(world: World, sandbox: SimSandbox): void {
	stopNow(world, sandbox, 'MISSING');
}
