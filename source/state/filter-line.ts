/**
 * The grammar both filter lines share: whitespace-separated tokens, "quoted phrases" kept
 * together, and `field:a,b` tokens whose values are lower-cased. Each filter decides which
 * fields it knows; any other token is a free-text word.
 */
export type FilterToken = {token: string; field: string; values: string[]};

/** Splits on whitespace, keeping "quoted phrases" (quotes removed) together. */
export function tokenize(text: string): string[] {
	const tokens: string[] = [];
	const pattern = /"([^"]*)"?|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		const token = (match[1] ?? match[2] ?? '').trim();
		if (token) tokens.push(token);
	}

	return tokens;
}

export function filterTokens(text: string): FilterToken[] {
	return tokenize(text).map((token) => {
		const colon = token.indexOf(':');
		const field = colon > 0 ? token.slice(0, colon).toLowerCase() : '';
		const values = field
			? token
					.slice(colon + 1)
					.split(',')
					.map((value) => value.trim().toLowerCase())
					.filter((value) => value.length > 0)
			: [];
		return {token, field, values};
	});
}

/**
 * A parse cache for a filter line. Lines are typed one character at a time, so the cache is
 * cleared once it holds a couple of hundred entries instead of growing with every keystroke.
 */
export function cachedParser<T>(parse: (text: string) => T): (line: string) => T {
	const cache = new Map<string, T>();
	return (line: string) => {
		const text = line.trim();
		const cached = cache.get(text);
		if (cached !== undefined) return cached;
		const parsed = parse(text);
		if (cache.size > 200) cache.clear();
		cache.set(text, parsed);
		return parsed;
	};
}
