/**
 * What can be done about a sandbox that is not running, in words that cannot mislead: only a
 * PAUSED sandbox can be resumed. The service answers a resume of an ERROR or MISSING one with 404
 * (docs/service-behaviour.md §1.2: any runtime-API error is reported as 404), so advising "resume it" for
 * them sends the user into an error.
 */

export function canResume(status: string | null | undefined): boolean {
	return String(status ?? '').toUpperCase() === 'PAUSED';
}

/** `failed (ERROR): it cannot be resumed` / `gone (MISSING): …`, for a sandbox that cannot be resumed. */
export function cannotResumeText(status: string | null | undefined): string {
	const upper = String(status ?? 'MISSING').toUpperCase();
	if (upper === 'ERROR') return 'failed (ERROR): it cannot be resumed; its history is still readable, start a new conversation to go on';
	if (upper === 'MISSING') return 'gone (MISSING): it cannot be resumed; its history is still readable, start a new conversation to go on';
	return `${upper.toLowerCase()}: nothing to resume`;
}
