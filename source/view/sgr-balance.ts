/**
 * Whether every SGR code in `line` opens one attribute that a later code of the same line closes,
 * with nothing closed that was not open and no reset: what chalk writes (and so Ink's nested
 * Text), never what a stray or hostile code looks like. Conservative: a compound code
 * (`ESC[1;31m`), a reset, or two opens closed by one code (bold and dim by 22) answer false.
 */

/** The code that closes each single-parameter opening code. */
function closerOf(parameters: string): string | undefined {
	const code = Number(parameters);
	if (parameters.startsWith('38;5;') || parameters.startsWith('38;2;')) return '39';
	if (parameters.startsWith('48;5;') || parameters.startsWith('48;2;')) return '49';
	if (parameters === '' || parameters.includes(';') || !Number.isInteger(code)) return undefined;
	if (code === 1 || code === 2) return '22';
	if (code >= 3 && code <= 9 && code !== 6) return String(20 + code);
	if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) return '39';
	if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) return '49';
	return undefined;
}

const closers = new Set(['22', '23', '24', '25', '27', '28', '29', '39', '49']);

export function hasBalancedSgr(line: string): boolean {
	const open = new Map<string, number>();
	let index = line.indexOf('\u001B');
	while (index !== -1) {
		if (line[index + 1] !== '[') return false;
		const end = line.indexOf('m', index + 2);
		if (end === -1) return false;
		const parameters = line.slice(index + 2, end);
		if (!/^[\d;]*$/.test(parameters)) return false;
		if (closers.has(parameters)) {
			const count = open.get(parameters) ?? 0;
			if (count === 0) return false;
			open.set(parameters, count - 1);
		} else {
			const closer = closerOf(parameters);
			if (closer === undefined || (open.get(closer) ?? 0) > 0) return false;
			open.set(closer, 1);
		}
		index = line.indexOf('\u001B', end + 1);
	}
	for (const count of open.values()) if (count !== 0) return false;
	return true;
}
