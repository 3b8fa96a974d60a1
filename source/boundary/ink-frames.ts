/**
 * How Ink 8 writes a frame to stdout (build/ink.js, build/log-update.js), which the frame differ
 * (view/frame-diff.ts) reads to turn whole frames into the cells that changed:
 * - a frame is one write: `eraseLines(n)` for the previous frame's n lines (ESC[2K, then ESC[1A
 *   and ESC[2K per further line, then ESC[G), then the new frame's lines joined by newlines, with a
 *   trailing newline unless the frame fills the terminal;
 * - synchronized output (ESC[?2026h/l), cursor hiding and showing (ESC[?25l/h) are writes of their
 *   own; so are the alternate screen's switches, which the differ passes through (anything it
 *   does not recognise makes the next frame a full repaint).
 * test/boundary.test.ts renders with Ink into a fake terminal and checks every write against these.
 */

/** What Ink puts before a frame: erase line, cursor up, cursor to column 1 (`eraseLines`). */
export const inkErasePrefix = /^(?:\u001B\[(?:2K|\d*A|G|\d*G))*/;
/** Written around frames (synchronized output, cursor visibility): no effect on the cells. */
export const inkModeSwitch = /^(?:\u001B\[\?(?:2026|25)[hl])+$/;
