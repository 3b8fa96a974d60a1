/**
 * How Ink 8 writes a frame to stdout (build/ink.js, build/log-update.js), which the frame differ
 * (terminal/frame-diff.ts) reads to turn whole frames into the cells that changed:
 * - a frame is one write: `eraseLines(n)` for the previous frame's n lines (ESC[2K, then ESC[1A
 *   and ESC[2K per further line, then ESC[G), then the new frame's lines joined by newlines, with a
 *   trailing newline unless the frame fills the terminal;
 * - synchronized output (ESC[?2026h/l), cursor hiding and showing (ESC[?25l/h) are writes of their
 *   own; so are the alternate screen's switches, which the differ passes through (anything it
 *   does not recognise makes the next frame a full repaint);
 * - on a terminal, a frame that differs from the last one is bracketed by its own writes of the
 *   synchronized-output switches: begin, the frame, end (build/ink.js, `throttledLog`). The differ
 *   holds the begin back and drops the pair when what it writes for the frame is one row.
 * test/boundary.test.ts renders with Ink into a fake terminal and checks every write against these.
 */

/** What Ink puts before a frame: erase line, cursor up, cursor to column 1 (`eraseLines`). */
export const inkErasePrefix = /^(?:\u001B\[(?:2K|\d*A|G|\d*G))*/;
/** Synchronized output (DEC mode 2026): the terminal shows nothing between begin and end. */
export const inkSyncBegin = '\u001B[?2026h';
export const inkSyncEnd = '\u001B[?2026l';
/** Written around frames (synchronized output, cursor visibility): no effect on the cells. */
export const inkModeSwitch = /^(?:\u001B\[\?(?:2026|25)[hl])+$/;
