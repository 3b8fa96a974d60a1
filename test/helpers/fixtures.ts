/**
 * Small values many tests build the same way. One copy each, so a change of format (an id's
 * length, its case) is made once.
 */

/** A conversation id as the server writes it: 32 lowercase hex digits, `n` in the low ones. */
export function hexId(n: number): string {
	return n.toString(16).padStart(32, '0');
}
