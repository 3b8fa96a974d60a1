/**
 * Editing helpers for the timeline filter line (`kind:ActionEvent source:agent pytest`); the
 * language itself is parsed by the state layer (timeline-query.ts).
 */

const partialKind = /(?:^|\s)(?:kind|type):(\S*)$/i;

/** The kind being typed at the end of the line (`kind:Obs` → `Obs`), or null when none is. */
export function kindPrefix(text: string): string | null {
	const match = partialKind.exec(text);
	return match ? (match[1] ?? '') : null;
}

/** The line with `kind` completed: replaces a trailing `kind:…` being typed, or appends a term. */
export function withKind(text: string, kind: string): string {
	const match = partialKind.exec(text);
	if (match) {
		const start = match.index + match[0].length - match[0].trimStart().length;
		return `${text.slice(0, start)}kind:${kind} `;
	}

	const trimmed = text.trimEnd();
	return `${trimmed}${trimmed ? ' ' : ''}kind:${kind} `;
}

/** Kinds for the picker, those matching what is being typed first. */
export function pickerKinds(kinds: readonly string[], text: string): string[] {
	const prefix = kindPrefix(text)?.toLowerCase() ?? '';
	if (!prefix) return [...kinds];
	const starts = kinds.filter((kind) => kind.toLowerCase().startsWith(prefix));
	const contains = kinds.filter((kind) => !kind.toLowerCase().startsWith(prefix) && kind.toLowerCase().includes(prefix));
	return [...starts, ...contains];
}
