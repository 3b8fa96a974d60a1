/**
 * Keys in the all-servers view (`--all-profiles`): a conversation or sandbox key is qualified by
 * the profile it came from, `<key>@<profile>`, because two servers can hold the same id (two
 * accounts on one service, two seeded simulators) and an action must reach the server its row
 * came from. The first eight characters stay the id's, so short ids on screen read as before.
 */

export const serverSeparator = '@';

export function qualifyKey(key: string, server: string): string {
	return `${key}${serverSeparator}${server}`;
}

/** The server and the server's own key of `qualified`, or null when it names none of `servers`. */
export function splitKey(qualified: string, servers: readonly string[]): {server: string; key: string} | null {
	// The longest name first: profile `lab` must not claim a key of profile `my@lab`.
	for (const server of [...servers].sort((a, b) => b.length - a.length)) {
		const suffix = `${serverSeparator}${server}`;
		if (qualified.endsWith(suffix) && qualified.length > suffix.length) return {server, key: qualified.slice(0, -suffix.length)};
	}
	return null;
}

/** The name ctrl-p and the runtime's `switchTo` use for the all-servers view: every profile at once. */
export const allProfiles = '*';
