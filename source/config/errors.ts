/**
 * A configuration mistake the user must fix (bad flag combination, unreadable key file, unknown
 * profile). The CLI prints the message as is and exits with the usage code, so the message must
 * say what to do and must never contain a key.
 */
export class ConfigError extends Error {
	override name = 'ConfigError';
}
