/**
 * Desktop notifications as terminal escape sequences, and the wrapping that gets them through a
 * terminal multiplexer. Pure strings: the caller writes them between frames.
 *
 * Three notification sequences are in use, each read by different terminals:
 *   OSC 9    `ESC ] 9 ; text BEL`: iTerm2, WezTerm, Ghostty, Windows Terminal, foot
 *   OSC 777  `ESC ] 777 ; notify ; title ; body BEL`: urxvt (notify extension), foot, WezTerm,
 *            Ghostty, VTE-based terminals with the notification patch
 *   OSC 99   `ESC ] 99 ; metadata ; payload ESC \`: kitty's protocol (a title chunk, then the body)
 * A terminal ignores an OSC it does not know, so a wrong choice costs silence, not garbage; the
 * bell is the fallback every terminal has.
 *
 * tmux does not pass an application's OSC 9 to the terminal it runs in: it takes the sequence
 * for itself. A sequence meant for the outer terminal must be wrapped in tmux's passthrough,
 * `ESC P tmux; <sequence with every ESC doubled> ESC \`, which tmux 3.3 and later forwards only
 * with `set -g allow-passthrough on`. GNU screen forwards the body of any DCS, `ESC P <sequence>
 * ESC \`, as it is. The bell is never wrapped: both multiplexers pass a BEL on themselves.
 */

export type NotifyProtocol = 'osc9' | 'osc777' | 'osc99';
export const notifyProtocols: readonly NotifyProtocol[] = ['osc9', 'osc777', 'osc99'];

export type Multiplexer = 'tmux' | 'screen' | null;

const esc = '\u001B';
const bel = '\u0007';
const st = `${esc}\\`;

/**
 * Only printable text may go inside a sequence: a control character would end it early (BEL,
 * ESC) or start another. `;` separates OSC 777's fields, so it is replaced there.
 */
function printable(text: string): string {
	return text.replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, ' ');
}

/** One notification, unwrapped, for the terminal that reads `protocol`. */
export function notificationSequence(protocol: NotifyProtocol, title: string, body: string): string {
	const cleanTitle = printable(title);
	const cleanBody = printable(body);
	switch (protocol) {
		case 'osc9':
			// One string only: the title leads it.
			return `${esc}]9;${cleanTitle}: ${cleanBody}${bel}`;
		case 'osc777':
			return `${esc}]777;notify;${cleanTitle.replaceAll(';', ',')};${cleanBody.replaceAll(';', ',')}${bel}`;
		case 'osc99':
			// kitty: d=0 says more chunks follow (the title), d=1 ends the notification with its body.
			return `${esc}]99;i=agent-tui:d=0:p=title;${cleanTitle}${st}${esc}]99;i=agent-tui:d=1:p=body;${cleanBody}${st}`;
	}
}

/** Wraps a sequence so the multiplexer hands it to the terminal it runs in. */
export function passthrough(sequence: string, multiplexer: Multiplexer): string {
	if (multiplexer === 'tmux') return `${esc}Ptmux;${sequence.replaceAll(esc, esc + esc)}${st}`;
	// screen ends its DCS at the first ST: an inner one (OSC 99's) becomes BEL, which ends an OSC as well.
	if (multiplexer === 'screen') return `${esc}P${sequence.replaceAll(st, bel)}${st}`;
	return sequence;
}

/**
 * The multiplexer the program runs in, from the environment: tmux sets `TMUX`, screen sets `STY`.
 * Over SSH from inside one, only TERM crosses: `tmux…` is tmux; `screen…` may be either (it is
 * tmux's default TERM too), and is taken for screen, because screen would print tmux's wrapper
 * as text while tmux drops a DCS it does not know: a lost notification, never a garbled screen.
 */
export function multiplexerOf(env: NodeJS.ProcessEnv): Multiplexer {
	const term = env.TERM ?? '';
	if (env.TMUX || term.startsWith('tmux')) return 'tmux';
	if (env.STY || term.startsWith('screen')) return 'screen';
	return null;
}

/**
 * The notification a terminal reads, from what it tells its programs: kitty (its TERM, or
 * KITTY_WINDOW_ID, which also survives into a tmux started from it) reads OSC 99; urxvt OSC 777;
 * everything else gets OSC 9, the most widely read. `--alert-protocol` overrides the guess.
 */
export function defaultProtocol(env: NodeJS.ProcessEnv): NotifyProtocol {
	const term = (env.TERM ?? '').toLowerCase();
	if (term.includes('kitty') || env.KITTY_WINDOW_ID) return 'osc99';
	if (term.startsWith('rxvt')) return 'osc777';
	return 'osc9';
}

/** The bytes that ring one alert: the bell (unless off), then the notification wrapped for the multiplexer. */
export function alertBytes(options: {bell: boolean; protocol: NotifyProtocol | null; multiplexer: Multiplexer; title: string; body: string}): string {
	let out = options.bell ? bel : '';
	if (options.protocol) out += passthrough(notificationSequence(options.protocol, options.title, options.body), options.multiplexer);
	return out;
}
