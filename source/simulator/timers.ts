/**
 * Every timer the simulator arms goes through here, so `close()` can cancel all of them and a
 * test process never hangs on a forgotten phase or sandbox transition.
 */
export class Timers {
	private readonly handles = new Set<NodeJS.Timeout>();
	private stopped = false;

	after(ms: number, run: () => void): NodeJS.Timeout | undefined {
		if (this.stopped) return undefined;
		const handle = setTimeout(() => {
			this.handles.delete(handle);
			run();
		}, Math.max(0, ms));
		this.handles.add(handle);
		return handle;
	}

	every(ms: number, run: () => void): NodeJS.Timeout | undefined {
		if (this.stopped) return undefined;
		const handle = setInterval(run, ms);
		this.handles.add(handle);
		return handle;
	}

	cancel(handle: NodeJS.Timeout | undefined): void {
		if (!handle) return;
		clearTimeout(handle);
		this.handles.delete(handle);
	}

	stopAll(): void {
		this.stopped = true;
		for (const handle of this.handles) clearTimeout(handle);
		this.handles.clear();
	}
}
