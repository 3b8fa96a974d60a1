import {fileURLToPath} from 'node:url';
import {buildInputsHash, builtFromHash} from '../../scripts/build-inputs.mjs';

/**
 * The CLI as it ships: `dist/bin.js`, the bundle `npm run build` makes. End-to-end and CLI tests
 * run it rather than the sources, so they test the code users get (bundled dependencies,
 * patched Ink). `npm test` builds it first when the sources changed (`pretest`); a test file run
 * on its own against an older bundle fails here with what to do, never on stale code.
 */

export const builtCli = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let checked = false;

/** The bundle's path, once checked to be built from the current sources. */
export function freshBuiltCli(): string {
	if (!checked) {
		const built = builtFromHash();
		if (built === null) throw new Error('dist/bin.js is missing: run `npm run build` (npm test builds it first)');
		if (built !== buildInputsHash()) throw new Error('dist/bin.js is older than the sources: run `npm run build` (npm test builds it first)');
		checked = true;
	}
	return builtCli;
}

/** Arguments for `spawn(process.execPath, [...cliArgs(), ...args])`: the built CLI. */
export function cliArgs(): string[] {
	return [freshBuiltCli()];
}

/** The built CLI as a shell command (tmux panes): this Node (with `nodeArgs`), quoted for `sh`. */
export function cliCommand(nodeArgs: readonly string[] = []): string {
	const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
	return [process.execPath, ...nodeArgs, freshBuiltCli()].map(quote).join(' ');
}
