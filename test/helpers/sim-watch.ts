import type {Simulator} from '../../source/simulator/server.js';

/**
 * Waits on the simulator's sandboxes, checked after every timer it fires from now on (each status
 * change is one): installed before the actions whose transitions it waits for.
 */
export function watchSimulator(sim: Simulator) {
	const timers = sim.world.timers;
	const original = timers.after.bind(timers);
	const waiters = new Set<() => void>();
	timers.after = (ms, run) =>
		original(ms, () => {
			run();
			for (const check of [...waiters]) check();
		});
	return (done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> => {
		if (done()) return Promise.resolve();
		return new Promise((resolve, reject) => {
			const check = () => {
				if (!done()) return;
				waiters.delete(check);
				clearTimeout(timer);
				resolve();
			};
			const timer = setTimeout(() => {
				waiters.delete(check);
				reject(new Error(`timed out waiting for ${what}`));
			}, timeoutMs);
			waiters.add(check);
		});
	};
}
