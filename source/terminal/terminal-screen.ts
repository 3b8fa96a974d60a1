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
 * Whether the dashboard draws live frames, and so takes the alternate screen: when stdout is a
 * terminal. Decided here once and handed to Ink (render's `interactive`, inkScreenOptions), so
 * Ink does not run its own test (is-in-ci: no live frames while `CI` is set) and the two cannot
 * disagree. The dashboard needs a terminal on stdin anyway; a `CI` variable does not make a person
 * at a terminal (or a tmux pane in a CI job) any less able to watch it.
 */
export function drawsLive(stdout: {isTTY?: boolean}): boolean {
	return Boolean(stdout.isTTY);
}

/**
 * Ink's render options that follow from drawing live or not: `interactive` itself, the alternate
 * screen, and the kitty keyboard protocol where the terminal answers Ink's query (kitty, ghostty,
 * foot, WezTerm: Esc and the keys with modifiers arrive unambiguous, so Esc then j, typed fast,
 * is never alt-j).
 */
export function inkScreenOptions(live: boolean): {interactive: boolean; alternateScreen: boolean; kittyKeyboard?: {mode: 'auto'}} {
	return live ? {interactive: true, alternateScreen: true, kittyKeyboard: {mode: 'auto'}} : {interactive: false, alternateScreen: false};
}

export type ScreenWriter = {isTTY?: boolean; write(chunk: string): unknown};

export type TerminalScreen = {
	/** True when the alternate screen is in use (stdout is a terminal). */
	readonly active: boolean;
	/** Give the terminal back as it was: the normal screen, the cursor, no bracketed paste. Safe to call any number of times. */
	restore(): void;
};

/**
 * The screen as Ink keeps it. `leave` is Ink's own way out (unmount, which restores the modes);
 * only when it throws are the modes reset by hand.
 */
export function inkTerminalScreen(stdout: ScreenWriter, leave: () => void): TerminalScreen {
	const active = drawsLive(stdout);
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
