import {inspect} from 'node:util';

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
