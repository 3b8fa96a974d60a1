/**
 * OSC 52: the terminal puts the text on the system clipboard (over SSH too, where tmux or the
 * terminal allows it). The text travels base64-encoded inside the sequence and is never drawn.
 */
export function osc52Copy(text: string): string {
	return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/**
 * OSC 8: `text` becomes a link the terminal opens on click, to `url`, which is not drawn. Only a
 * URL made of printable ASCII is used (the parser's own `href`: percent-encoded, punycode), so a
 * hostile link cannot end the sequence early and write its own; otherwise null.
 */
export function osc8Link(url: string, text: string): string | null {
	let href: string;
	try {
		href = new URL(url).href;
	} catch {
		return null;
	}
	if (!/^[\x21-\x7E]+$/.test(href)) return null;
	return `\u001B]8;;${href}\u0007${text}\u001B]8;;\u0007`;
}
