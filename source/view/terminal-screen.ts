/**
 * The alternate screen, the cursor and bracketed paste, entered once and restored on every way out. Ink 6.8 has
 * no `alternateScreen` option (Ink 7 does, on Node 22), so this is manual. Restoring is
 * idempotent and synchronous, so it can run from `exit`, signal and crash handlers alike.
 */

export const enterAlternateScreen = '\u001B[?1049h\u001B[H';
export const leaveAlternateScreen = '\u001B[?1049l';
export const showCursor = '\u001B[?25h';
/**
 * Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~, so a paste is text for
 * the focused field and never a run of keys (use-key-dispatch.ts). On while the dashboard runs,
 * off on every way out (a shell left with it on shows the markers around every paste).
 */
export const enableBracketedPaste = '\u001B[?2004h';
export const disableBracketedPaste = '\u001B[?2004l';

/** Ink's own test for CI (`is-in-ci`): set and not `0`/`false`. Ink draws nothing in CI until exit. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
	const value = env['CI'];
	return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}

export type ScreenWriter = {isTTY?: boolean; write(chunk: string): unknown};

export type TerminalScreen = {
	/** True when the alternate screen was entered (a TTY outside CI). */
	readonly active: boolean;
	/** Leave the alternate screen, show the cursor, end bracketed paste. Safe to call any number of times. */
	restore(): void;
};

export function openTerminalScreen(stdout: ScreenWriter, env: NodeJS.ProcessEnv = process.env): TerminalScreen {
	const active = Boolean(stdout.isTTY) && !inCi(env);
	let restored = !active;
	if (active) stdout.write(enterAlternateScreen + enableBracketedPaste);
	return {
		active,
		restore() {
			if (restored) return;
			restored = true;
			try {
				stdout.write(disableBracketedPaste + leaveAlternateScreen + showCursor);
			} catch {
				// stdout is gone (terminal closed, SIGHUP): nothing left to restore.
			}
		},
	};
}
