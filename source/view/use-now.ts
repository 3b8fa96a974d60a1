import {useEffect, useState} from 'react';

/**
 * The current time, refreshed every `intervalMs`, rounded down to it. Ages on screen ("3m") only
 * need to move as often as they can change; a coarse clock keeps memoised rows from re-rendering
 * every second. With `active` false it does not tick at all (an idle screen must not redraw), and
 * when it turns true it starts from the current time.
 */
export function useNow(intervalMs: number, active = true): number {
	const [now, setNow] = useState(() => floor(Date.now(), intervalMs));
	useEffect(() => {
		if (!active) return;
		setNow(floor(Date.now(), intervalMs));
		const timer = setInterval(() => setNow(floor(Date.now(), intervalMs)), intervalMs);
		// A dashboard clock must never keep the process alive on its own.
		timer.unref?.();
		return () => clearInterval(timer);
	}, [intervalMs, active]);
	return now;
}

function floor(time: number, step: number): number {
	return time - (time % step);
}
