/**
 * The one way to wait that an AbortSignal can cut short. Each wait removes the listener it added
 * to the signal however it ends (time up or aborted): pollers and supervisors wait thousands of
 * times on one signal that lives as long as the dashboard, and a listener left behind per wait
 * grows without bound until Node prints `MaxListenersExceededWarning` over the frame.
 */

/** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return wait(ms, signal, 'reject');
}

/** Resolves after `ms`, or as soon as the signal is aborted (for loops that check `closed` next). */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
	return wait(ms, signal, 'resolve');
}

function wait(ms: number, signal: AbortSignal | undefined, onAbort: 'resolve' | 'reject'): Promise<void> {
	return new Promise((resolve, reject) => {
		const end = () => (onAbort === 'resolve' ? resolve() : reject(signal?.reason));
		if (signal?.aborted) {
			end();
			return;
		}
		const aborted = () => {
			clearTimeout(timer);
			end();
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', aborted);
			resolve();
		}, ms);
		signal?.addEventListener('abort', aborted, {once: true});
	});
}
