import {attributeClosedBy, attributeOf} from './sgr-attributes.js';

/**
 * Whether every SGR code in `line` opens one attribute that a later code of the same line closes,
 * with nothing closed that was not open and no reset: what chalk writes (and so Ink's nested
 * Text), never what a stray or hostile code looks like. Conservative: a compound code
 * (`ESC[1;31m`), a reset, or two opens closed by one code (bold and dim by 22) answer false.
 */

/** The attribute one opening code sets: a single code, or an extended colour with its parameters. */
function openedAttribute(parameters: string): string | null {
	if (/^[34]8;[25];/.test(parameters)) return parameters.startsWith('3') ? 'fg' : 'bg';
	// A lone 38 or 48 is an extended colour missing its parameters.
	if (!/^\d+$/.test(parameters) || parameters === '38' || parameters === '48') return null;
	return attributeOf(Number(parameters));
}

export function hasBalancedSgr(line: string): boolean {
	const open = new Set<string>();
	let index = line.indexOf('\u001B');
	while (index !== -1) {
		if (line[index + 1] !== '[') return false;
		const end = line.indexOf('m', index + 2);
		if (end === -1) return false;
		const parameters = line.slice(index + 2, end);
		if (!/^[\d;]*$/.test(parameters)) return false;
		const closed = /^\d+$/.test(parameters) ? attributeClosedBy(Number(parameters)) : undefined;
		if (closed) {
			if (!open.delete(closed)) return false;
		} else {
			const opened = openedAttribute(parameters);
			if (opened === null || open.has(opened)) return false;
			open.add(opened);
		}
		index = line.indexOf('\u001B', end + 1);
	}
	return open.size === 0;
}
