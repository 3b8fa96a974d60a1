/**
 * Conversation and task ids come in two spellings: the app server sends 32 hex characters
 * (OpenHandsUUID), the agent server the dashed UUID form. Compare and key maps by the hex form.
 */
const hexOnly = /^[0-9a-f]{32}$/;

/** Lower-cased hex form of a UUID-like id; any other string is returned unchanged. */
export function normalizeId(id: string): string {
	const compact = id.trim().toLowerCase().replaceAll('-', '');
	return hexOnly.test(compact) ? compact : id;
}

/** The dashed 8-4-4-4-12 form of a UUID-like id; any other string is returned unchanged. */
export function dashedId(id: string): string {
	const hex = normalizeId(id);
	if (!hexOnly.test(hex)) return id;
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sameId(a: string, b: string): boolean {
	return normalizeId(a) === normalizeId(b);
}

export function isUuidLike(id: string): boolean {
	return hexOnly.test(normalizeId(id));
}
