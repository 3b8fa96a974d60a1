/**
 * Timers that keep this process alive right now (unref'd ones, such as the hang watchdog's, are
 * not counted). A "nothing more will happen" check compares this with the count from before the
 * thing under test started: no timer of its own left means nothing is scheduled that could act
 * later, which a sleep can only hope to see.
 */
export function timersLeft(): number {
	return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}
