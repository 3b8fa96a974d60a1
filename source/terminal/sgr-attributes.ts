/**
 * Which attribute each SGR code sets or clears, for the line differ (line-diff.ts, which tracks
 * the style of every cell).
 */

/** The attribute an opening SGR parameter sets (38 and 48 are extended colours: fg and bg). */
export function attributeOf(code: number): string | null {
	if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 'fg';
	if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 'bg';
	if (code === 1 || code === 2) return 'weight';
	if (code === 3) return 'italic';
	if (code === 4) return 'underline';
	if (code === 5) return 'blink';
	if (code === 7) return 'inverse';
	if (code === 8) return 'hidden';
	if (code === 9) return 'strike';
	return null;
}

const closedBy: Readonly<Record<number, string>> = {
	39: 'fg',
	49: 'bg',
	22: 'weight',
	23: 'italic',
	24: 'underline',
	25: 'blink',
	27: 'inverse',
	28: 'hidden',
	29: 'strike',
};

/** The attribute a closing SGR parameter clears (22 clears bold and dim alike); undefined for any other code. */
export function attributeClosedBy(code: number): string | undefined {
	return closedBy[code];
}
