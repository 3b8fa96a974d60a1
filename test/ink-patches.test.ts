import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {upstream} from '../source/ink-patches/index.js';

/**
 * The patched dependencies are the versions the patches were written for, and the patches are
 * applied (by `npm ci` through patch-package): an upgrade fails here, naming the file to re-read.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));

function installed(name: string): {version: string; directory: string} {
	// Each package's own directory, found from its manifest (some have an exports map without it).
	for (const base of require.resolve.paths(name) ?? []) {
		try {
			const manifest = JSON.parse(readFileSync(join(base, name, 'package.json'), 'utf8')) as {version: string};
			return {version: manifest.version, directory: join(base, name)};
		} catch {
			// Not in this node_modules.
		}
	}
	throw new Error(`${name} is not installed`);
}

test('every upstream file the patches depend on is the version they were written for', () => {
	for (const entry of upstream) {
		const {version, directory} = installed(entry.package);
		assert.equal(version, entry.version, `${entry.package} ${version} installed, ${entry.version} expected: re-read ${entry.package}/${entry.file} (${entry.why}), then update source/ink-patches`);
		assert.ok(readFileSync(join(directory, entry.file), 'utf8').length > 0, `${entry.package}/${entry.file}`);
	}
});

test('one patch file per patched package, for the listed version, and each is applied', () => {
	const patches = readdirSync(join(root, 'patches')).sort();
	const patched = upstream.filter((entry) => entry.why.startsWith('patched'));
	assert.deepEqual(patches, [...new Set(patched.map((entry) => `${entry.package}+${entry.version}.patch`))].sort());
	for (const entry of patched) {
		const text = readFileSync(join(installed(entry.package).directory, entry.file), 'utf8');
		const marker = entry.package === 'yoga-layout' ? '"function"!=typeof fetch||ua(H)?' : 'agent-tui patch (source/ink-patches)';
		assert.ok(text.includes(marker), `${entry.package}/${entry.file} is not patched: run npm install (patch-package)`);
	}
});

test('one string-width for Ink and all its helpers (wrap-ansi overridden to it)', () => {
	const fromInk = createRequire(join(installed('ink').directory, 'package.json'));
	const directories = ['wrap-ansi', 'cli-truncate', 'widest-line'].map((name) => {
		const helper = createRequire(join(dirname(fromInk.resolve(name)), 'package.json'));
		return dirname(helper.resolve('string-width'));
	});
	for (const directory of directories) assert.equal(directory, installed('string-width').directory);
});

test('nothing in source/ outside source/ink-patches reaches into node_modules', () => {
	const offenders: string[] = [];
	const walk = (directory: string) => {
		for (const entry of readdirSync(directory, {withFileTypes: true})) {
			const path = join(directory, entry.name);
			if (entry.isDirectory()) {
				if (path !== join(root, 'source', 'ink-patches')) walk(path);
			} else if (readFileSync(path, 'utf8').includes('node_modules/')) offenders.push(path.slice(root.length));
		}
	};
	walk(join(root, 'source'));
	assert.deepEqual(offenders, []);
});
