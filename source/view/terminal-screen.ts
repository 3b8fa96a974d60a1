/**
 * The terminal's modes while the dashboard runs. Ink 8 enters the alternate screen (render's
 * `alternateScreen`), hides the cursor, turns bracketed paste on (usePaste) and, where the
 * terminal has it, the kitty keyboard protocol, and undoes them all when it unmounts. This is the
 * fallback for the one case it cannot: a crash that leaves Ink unable to unmount. Restoring is
 * idempotent and synchronous, so it can run from `exit`, signal and crash handlers alike.
 */

export const leaveAlternateScreen = '\u001B[?1049l';
export const showCursor = '\u001B[?25h';
export const disableBracketedPaste = '\u001B[?2004l';
/** Pops the kitty keyboard protocol's mode, if Ink pushed one (ignored by terminals without it). */
export const popKeyboardMode = '\u001B[<u';

/**
 * Ink's own test for CI (`is-in-ci` 2): `CI` or `CONTINUOUS_INTEGRATION` set and not `0` or
 * `false`. Ink draws nothing in CI until exit.
 */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
	const set = (value: string | undefined) => value !== undefined && value !== '0' && value !== 'false';
	return set(env['CI']) || set(env['CONTINUOUS_INTEGRATION']);
}

/** Whether Ink draws live frames here, and so takes the alternate screen: a TTY outside CI (Ink's `interactive`). */
export function drawsLive(stdout: {isTTY?: boolean}, env: NodeJS.ProcessEnv = process.env): boolean {
	return Boolean(stdout.isTTY) && !inCi(env);
}

export type ScreenWriter = {isTTY?: boolean; write(chunk: string): unknown};

export type TerminalScreen = {
	/** True when the alternate screen is in use (a TTY outside CI). */
	readonly active: boolean;
	/** Give the terminal back as it was: the normal screen, the cursor, no bracketed paste. Safe to call any number of times. */
	restore(): void;
};

/**
 * The screen as Ink keeps it. `leave` is Ink's own way out (unmount, which restores the modes);
 * only when it throws are the modes reset by hand.
 */
export function inkTerminalScreen(stdout: ScreenWriter, leave: () => void, env: NodeJS.ProcessEnv = process.env): TerminalScreen {
	const active = drawsLive(stdout, env);
	let restored = !active;
	return {
		active,
		restore() {
			if (restored) return;
			restored = true;
			try {
				leave();
				return;
			} catch {
				// Ink could not unmount: reset the modes ourselves.
			}
			try {
				stdout.write(popKeyboardMode + disableBracketedPaste + leaveAlternateScreen + showCursor);
			} catch {
				// stdout is gone (terminal closed, SIGHUP): nothing left to restore.
			}
		},
	};
}
