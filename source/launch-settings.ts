/**
 * What every launch sets before Ink, React or chalk are evaluated, shared by the npm package's
 * first module (bin.ts) and the single executable's (executable.ts). Node's own modules only.
 * - NODE_ENV=production: React's development build keeps a performance entry per render, so a
 *   long-running dashboard's memory grows without bound (ink#869, react#35761).
 * - chalk ignores NO_COLOR (chalk#547) and decides once, at import: map it (and --no-color) to FORCE_COLOR=0.
 */
export function setLaunchEnvironment(): void {
	// (Bracket access: the bundled build defines NODE_ENV at build time and must not see an assignment.)
	process.env['NODE_ENV'] ??= 'production';
	const noColorFlag = process.argv.slice(2).some((arg) => arg === '--no-color' || arg === '--color=false');
	if ((process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') || noColorFlag) {
		process.env.FORCE_COLOR = '0';
	}
}

/**
 * `--version` alone is answered before any dependency loads: scripts and shell prompts call it
 * often, and meow, zod and the rest cost more than Node itself to start.
 */
export function answerVersionAlone(version: () => string): void {
	if (process.argv.length === 3 && process.argv[2] === '--version') {
		process.stdout.write(`${version()}\n`);
		process.exit(0);
	}
}
