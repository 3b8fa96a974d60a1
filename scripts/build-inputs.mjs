import {createHash} from 'node:crypto';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';

/**
 * What the bundle is made from: the sources (the dependencies' source patches among them), the
 * build scripts and the lockfile. Their hash is written beside the bundle when it is built
 * (`dist/.build-inputs`), so `npm test` and `npm start` rebuild only when something changed, and
 * the tests that run `dist/bin.cjs` refuse a bundle that is older than the code
 * (test/helpers/built-cli.ts).
 */

const root = fileURLToPath(new URL('..', import.meta.url));
export const stampFile = join(root, 'dist', '.build-inputs');
const inputs = ['source', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];

function files(path) {
	if (!existsSync(path)) return [];
	if (!statSync(path).isDirectory()) return [path];
	return readdirSync(path)
		.sort()
		.flatMap((name) => files(join(path, name)));
}

/** One hash over every input's path and content. */
export function buildInputsHash() {
	const hash = createHash('sha256');
	for (const input of inputs) {
		for (const file of files(join(root, input))) {
			hash.update(relative(root, file));
			hash.update('\0');
			hash.update(readFileSync(file));
			hash.update('\0');
		}
	}
	return hash.digest('hex');
}

/** The hash the current dist/ was built from, or null when there is none. */
export function builtFromHash() {
	return existsSync(stampFile) && existsSync(join(root, 'dist', 'bin.cjs')) ? readFileSync(stampFile, 'utf8').trim() : null;
}
