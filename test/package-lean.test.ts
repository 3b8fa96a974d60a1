import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {sharedBundleOptions} from '../scripts/bundle-options.mjs';

/**
 * `npm run build` bundles every dependency into dist/, so `npm install -g` of the package must not
 * download them again: `dependencies` may hold only what the bundle leaves external.
 */

type Manifest = {dependencies?: Record<string, string>; devDependencies?: Record<string, string>; files?: string[]};
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

test('dependencies hold only what the bundle leaves external; the rest are devDependencies', () => {
	const external = new Set(sharedBundleOptions.external ?? []);
	const installed = Object.keys(manifest.dependencies ?? {});
	assert.deepEqual(
		installed.filter((name) => !external.has(name)),
		[],
		'bundled, so not installed again',
	);
	// The libraries the CLI is built from are still declared, for the build and the tests.
	for (const name of ['ink', 'react', 'zod', 'undici', 'ws', 'meow']) assert.ok(manifest.devDependencies?.[name], `${name} in devDependencies`);
	assert.deepEqual(manifest.files?.[0], 'dist');
});
