import {inspect} from 'node:util';
import {linkWithoutCredentials} from './link-credentials.js';

/**
 * A credential (API key, session key) that cannot be printed by accident: string conversion,
 * JSON, and util.inspect (console.log, crash output) all show `[redacted]`. Only `reveal()`,
 * called where a header is built, returns the value.
 */
export class Secret {
	readonly #value: string;

	constructor(value: string) {
		this.#value = value;
	}

	reveal(): string {
		return this.#value;
	}

	get isEmpty(): boolean {
		return this.#value.length === 0;
	}

	toString(): string {
		return '[redacted]';
	}

	toJSON(): string {
		return '[redacted]';
	}

	[inspect.custom](): string {
		return 'Secret([redacted])';
	}
}

export function secretValue(secret: Secret | string | null | undefined): string | undefined {
	if (secret == null) return undefined;
	return typeof secret === 'string' ? secret : secret.reveal();
}

/**
 * A link a sandbox exposes (VS Code, served apps). It often carries the session key as its token
 * (`?tkn=…`), so it is held like a credential: JSON, string conversion and util.inspect show it
 * with its credentials replaced (link-credentials.ts); only `reveal()` gives the
 * link itself, for the moment a person asks to open or copy it.
 */
export class SecretLink extends Secret {
	override toString(): string {
		return shownLink(this.reveal());
	}

	override toJSON(): string {
		return shownLink(this.reveal());
	}

	override [inspect.custom](): string {
		return `SecretLink(${shownLink(this.reveal())})`;
	}
}

function shownLink(link: string): string {
	return linkWithoutCredentials(link, '[redacted]') ?? '[redacted]';
}
