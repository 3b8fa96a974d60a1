import {homedir} from 'node:os';
import {isAbsolute, join, resolve} from 'node:path';

/**
 * Where the configuration lives: `$XDG_CONFIG_HOME/agent-tui/`, or `~/.config/agent-tui/` when
 * XDG_CONFIG_HOME is unset or not absolute (the XDG spec says to ignore relative values).
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
	const xdg = env.XDG_CONFIG_HOME;
	const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
	return join(base, 'agent-tui');
}

export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
	return join(configDir(env), 'config.json');
}

/** `~/x` is expanded (JSON is not a shell); a relative path is taken from `relativeTo`. */
export function expandPath(path: string, relativeTo: string, env: NodeJS.ProcessEnv = process.env): string {
	if (path === '~' || path.startsWith('~/')) return join(env.HOME || homedir(), path.slice(1));
	return resolve(relativeTo, path);
}

/**
 * Where state that outlives a run but is not configuration lives (snoozes, the shared request
 * budget): `$XDG_STATE_HOME/agent-tui/`, or `~/.local/state/agent-tui/` when XDG_STATE_HOME is
 * unset or not absolute.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
	const xdg = env.XDG_STATE_HOME;
	const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
	return join(base, 'agent-tui');
}
