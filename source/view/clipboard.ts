/**
 * OSC 52: the terminal puts the text on the system clipboard (over SSH too, where tmux or the
 * terminal allows it). The text travels base64-encoded inside the sequence and is never drawn.
 */
export function osc52Copy(text: string): string {
	return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}
