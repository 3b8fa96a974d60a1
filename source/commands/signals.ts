/**
 * How a command ends on a signal: 130 on ctrl-c (SIGINT), 143 on SIGTERM (128 + the signal's
 * number, what a shell reports), for every command, as the dashboard does (view/exit-guard.ts).
 *
 * A command that must finish cleanly when stopped (`watch` prints what it held, a follow closes
 * its stream) registers with `onStopSignal` and ends itself with the code it is given. While no
 * such command listens, `exitOnStopSignals` (installed for every command, cli.tsx) ends the
 * process at once with the code. A second signal while a command is still finishing ends it at once.
 */

export const signalExitCodes = {SIGINT: 130, SIGTERM: 143} as const;
export type StopSignal = keyof typeof signalExitCodes;
type Handler = (code: number, signal: StopSignal) => void;

const handlers: Handler[] = [];
let exitWhenUnhandled = false;
let stopping = false;
let installed = false;

function listener(signal: StopSignal): void {
	const code = signalExitCodes[signal];
	const handler = handlers.at(-1);
	if (handler && !stopping) {
		stopping = true;
		handler(code, signal);
		return;
	}
	if (handler || exitWhenUnhandled) {
		process.exitCode = code;
		process.exit(code);
	}
}

const onSigint = () => listener('SIGINT');
const onSigterm = () => listener('SIGTERM');

/** Listening only while someone needs it: otherwise Node's own handling (end by the signal) stands. */
function sync(): void {
	const wanted = exitWhenUnhandled || handlers.length > 0;
	if (wanted && !installed) {
		process.on('SIGINT', onSigint);
		process.on('SIGTERM', onSigterm);
	} else if (!wanted && installed) {
		process.off('SIGINT', onSigint);
		process.off('SIGTERM', onSigterm);
	}
	installed = wanted;
}

/** Every command ends 130 on SIGINT and 143 on SIGTERM, also one that registered no handler. */
export function exitOnStopSignals(): void {
	exitWhenUnhandled = true;
	sync();
}

/** `onStop(code)` on the first SIGINT or SIGTERM while registered; returns the unregister. */
export function onStopSignal(onStop: Handler): () => void {
	handlers.push(onStop);
	sync();
	return () => {
		const index = handlers.lastIndexOf(onStop);
		if (index !== -1) handlers.splice(index, 1);
		if (handlers.length === 0) stopping = false;
		sync();
	};
}
