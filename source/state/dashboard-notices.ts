import type {DashboardSnapshot} from './dashboard-types.js';
import {redact} from './redact.js';

/**
 * The dashboard's one notice slot (a local message about what the client did or saw, never a
 * server fact of its own). A routine message does not wipe out a recent warning or error (the
 * cap pause must not vanish under "running again" a poll later): it is appended to it instead.
 */

export type NoticeLevel = 'info' | 'warn' | 'error';

const severity = {info: 0, warn: 1, error: 2} as const;
/** A warning or error stays in front of routine notices for this long. */
const noticeKeepMs = 10_000;

export class Notices {
	#notice: DashboardSnapshot['notice'] = null;
	/** The messages the notice holds, each once with how often it came (shown `(×2)`). */
	#noticeParts: Array<{text: string; count: number}> = [];
	readonly #now: () => number;
	readonly #secrets: readonly string[];
	readonly #changed: () => void;

	constructor(options: {now: () => number; secrets: readonly string[]; changed: () => void}) {
		this.#now = options.now;
		this.#secrets = options.secrets;
		this.#changed = options.changed;
	}

	get current(): DashboardSnapshot['notice'] {
		return this.#notice;
	}

	setNotice(text: string, level: NoticeLevel): void {
		const now = this.#now();
		const clean = redact(text, this.#secrets);
		const previous = this.#notice;
		const fresh = previous !== null && now - previous.at < noticeKeepMs;
		const repeat = fresh ? this.#noticeParts.find((part) => part.text === clean) : undefined;
		if (repeat) {
			// The same message again (a status seen by two polls, a second refusal): counted, not repeated.
			repeat.count++;
			this.#notice = {text: this.#joinedNotice(), level: previous!.level, at: severity[previous!.level] > severity[level] ? previous!.at : now};
		} else if (previous && fresh && severity[previous.level] > severity[level]) {
			this.#noticeParts.push({text: clean, count: 1});
			// Keeps the warning's time, so routine messages cannot hold it on screen forever.
			this.#notice = {text: this.#joinedNotice(), level: previous.level, at: previous.at};
		} else {
			this.#noticeParts = [{text: clean, count: 1}];
			this.#notice = {text: clean, level, at: now};
		}

		this.#changed();
	}

	dismissNotice(): void {
		if (this.#notice === null) return;
		this.#notice = null;
		this.#changed();
	}

	#joinedNotice(): string {
		const joined = this.#noticeParts.map((part) => (part.count > 1 ? `${part.text} (×${part.count})` : part.text)).join(' ');
		return joined.length > 400 ? `${joined.slice(0, 399)}…` : joined;
	}
}

/** The most severe of these levels (undefined for none). */
export function worst(levels: NoticeLevel[]): NoticeLevel | undefined {
	if (levels.includes('error')) return 'error';
	if (levels.includes('warn')) return 'warn';
	return levels[0];
}
