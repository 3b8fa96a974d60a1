import {readFileSync} from 'node:fs';
import {Secret} from '../wire/secret.js';
import {ConfigError} from './errors.js';
import {warnIfShared, type Warn} from './file-permissions.js';

/**
 * Reading the API key from the places that keep it out of shell history and `ps`: a file, stdin,
 * or the environment (deleted right after reading). Never from a flag value.
 */

export const keyEnvName = 'OPENHANDS_API_KEY';

/** A key is one line; a trailing newline from `echo` or an editor is not part of it. */
export function cleanKey(text: string, from: string): Secret {
	const key = text.replace(/^\uFEFF/, '').trim();
	if (key.length === 0) throw new ConfigError(`the API key from ${from} is empty`);
	if (/\s/.test(key)) throw new ConfigError(`the API key from ${from} contains whitespace; it must be the key alone on one line`);
	return new Secret(key);
}

export function readKeyFile(path: string, warn: Warn): Secret {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'error');
		throw new ConfigError(`cannot read the API key file ${path} (${why})`);
	}
	warnIfShared(path, 'the API key file', warn);
	return cleanKey(text, `the file ${path}`);
}

/**
 * Takes the key out of the environment. Deleted whether or not it is used, so it is not in
 * `process.report` output nor inherited by child processes (an $EDITOR, a shell-out).
 */
export function takeKeyFromEnv(env: NodeJS.ProcessEnv): Secret | null {
	const value = env[keyEnvName];
	delete env[keyEnvName];
	if (value === undefined || value.trim() === '') return null;
	return cleanKey(value, keyEnvName);
}

export async function readKeyFromStdin(stdin: NodeJS.ReadStream | NodeJS.ReadableStream & {isTTY?: boolean} = process.stdin): Promise<Secret> {
	// Typing a key at a terminal would echo it; stdin is meant for a pipe from a password manager.
	if (stdin.isTTY) {
		throw new ConfigError('--api-key-stdin reads the key from a pipe, e.g. `pass show openhands | agent-tui --api-key-stdin …`; stdin is a terminal');
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stdin) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
		size += buffer.length;
		if (size > 64 * 1024) throw new ConfigError('--api-key-stdin: more than 64 KiB on stdin; expected one key');
		chunks.push(buffer);
	}
	return cleanKey(Buffer.concat(chunks).toString('utf8'), 'stdin');
}

/** Why `--api-key VALUE` is refused; shown with exit code 2. */
export const apiKeyFlagRefusal =
	'--api-key is not accepted: a key on the command line is saved in your shell history and visible to other users in `ps`. ' +
	`Set ${keyEnvName}, or use --api-key-file PATH, --api-key-stdin, or apiKeyFile in the config file.`;
