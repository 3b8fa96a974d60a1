import {lstatSync, mkdirSync, statSync, type Stats} from 'node:fs';
import {dirname, isAbsolute, join} from 'node:path';

/**
 * Where Node's compile cache (V8's compiled code for the bundle, `module.enableCompileCache`) may
 * live. Node's default is `os.tmpdir()/node-compile-cache`: on a shared machine (the jump host a
 * dashboard is often run on over SSH) one folder for every account. An entry there is checked only
 * against a hash of the source, which anyone can read in the installed package, and V8 runs the
 * code it holds. So another account that makes that folder first could have its code run as you.
 *
 * Ours is `$XDG_CACHE_HOME/agent-tui/node-compile-cache` (`$HOME/.cache/…` when XDG_CACHE_HOME is
 * unset or relative; with neither, no cache: node:os would cost every `--version`), made 0700, and used only while no other account can write to it or swap it:
 * the folder is ours and private, and the two folders above it are ours or root's and writable by
 * no one else (unless sticky, as /tmp is). Anything else: no compile cache, a slower start, never
 * someone else's code.
 *
 * NODE_COMPILE_CACHE (a folder the person chose) is left to Node; NODE_DISABLE_COMPILE_CACHE turns it off.
 * Where accounts have no POSIX owner (Windows), Node's default is kept: the temporary folder there is
 * the account's own.
 */
export type CompileCacheChoice = {enable: true; directory: string | undefined} | {enable: false; reason: string};

export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const xdg = env.XDG_CACHE_HOME;
	const home = env.HOME;
	const base = xdg && isAbsolute(xdg) ? xdg : home && isAbsolute(home) ? join(home, '.cache') : undefined;
	return base === undefined ? undefined : join(base, 'agent-tui', 'node-compile-cache');
}

export function chooseCompileCache(env: NodeJS.ProcessEnv = process.env, uid: number | null = process.getuid?.() ?? null): CompileCacheChoice {
	if (env.NODE_DISABLE_COMPILE_CACHE) return {enable: false, reason: 'NODE_DISABLE_COMPILE_CACHE is set'};
	if (env.NODE_COMPILE_CACHE) return {enable: true, directory: undefined};
	if (uid === null) return {enable: true, directory: undefined};
	const directory = compileCacheDir(env);
	if (directory === undefined) return {enable: false, reason: 'neither XDG_CACHE_HOME nor HOME is an absolute path'};
	try {
		mkdirSync(directory, {recursive: true, mode: 0o700});
		const own = lstatSync(directory);
		if (!own.isDirectory()) return {enable: false, reason: `${directory} is not a folder of its own`};
		if (own.uid !== uid) return {enable: false, reason: `${directory} belongs to another account`};
		if ((own.mode & 0o077) !== 0) return {enable: false, reason: `${directory} is open to other accounts`};
		const parent = dirname(directory);
		for (const [path, stats] of [
			[parent, lstatSync(parent)],
			[dirname(parent), statSync(dirname(parent))],
		] as Array<[string, Stats]>) {
			const why = othersCanChange(stats, uid);
			if (why) return {enable: false, reason: `${path} ${why}`};
		}
		return {enable: true, directory};
	} catch (error) {
		return {enable: false, reason: `${directory}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`};
	}
}

/** Why another account could rename or replace what is inside this folder, or null. */
function othersCanChange(stats: Stats, uid: number): string | null {
	if (!stats.isDirectory()) return 'is not a folder';
	if (stats.uid !== uid && stats.uid !== 0) return 'belongs to another account';
	const sticky = (stats.mode & 0o1000) !== 0;
	if ((stats.mode & 0o022) !== 0 && !sticky) return 'is writable by other accounts';
	return null;
}
