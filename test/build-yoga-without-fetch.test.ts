import assert from 'node:assert/strict';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {yogaWithoutFetchSource} from '../scripts/yoga-without-fetch.mjs';

/** The bundle's yoga loader decodes its WebAssembly without fetch, and the engine still lays out. */

const loaderFile = fileURLToPath(new URL('../node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js', import.meta.url));

type YogaNode = {setWidth(width: number): void; setHeight(height: number): void; insertChild(child: YogaNode, index: number): void; setFlexGrow(grow: number): void; calculateLayout(width?: number, height?: number): void; getComputedWidth(): number; getComputedHeight(): number};
type Yoga = {Node: {create(): YogaNode}};

test('yoga loads without calling fetch and lays out as before', async (t) => {
	const patched = yogaWithoutFetchSource(readFileSync(loaderFile, 'utf8'));
	const copy = loaderFile.replace(/\.js$/, `.no-fetch-test-${process.pid}.js`);
	writeFileSync(copy, patched);
	const fetchCalls: string[] = [];
	const realFetch = globalThis.fetch;
	globalThis.fetch = ((input: unknown) => {
		fetchCalls.push(String(input).slice(0, 40));
		return realFetch(input as string);
	}) as typeof fetch;
	t.after(() => {
		globalThis.fetch = realFetch;
		rmSync(copy, {force: true});
	});
	const {default: loadYoga} = (await import(pathToFileURL(copy).href)) as {default: () => Promise<{Node: unknown}>};
	const {default: wrapAssembly} = (await import(pathToFileURL(fileURLToPath(new URL('../node_modules/yoga-layout/dist/src/wrapAssembly.js', import.meta.url))).href)) as {default: (lib: unknown) => Yoga};
	const yoga = wrapAssembly(await loadYoga());
	assert.equal(fetchCalls.length, 0, JSON.stringify(fetchCalls));
	const root = yoga.Node.create();
	root.setWidth(80);
	root.setHeight(24);
	const child = yoga.Node.create();
	child.setFlexGrow(1);
	root.insertChild(child, 0);
	root.calculateLayout(80, 24);
	assert.equal(child.getComputedWidth(), 80);
	assert.equal(child.getComputedHeight(), 24);
	// The unpatched loader does fetch its data: URL on this Node: what the patch is for.
	const original = (await import(pathToFileURL(loaderFile).href)) as {default: () => Promise<unknown>};
	await original.default();
	assert.ok(fetchCalls.some((url) => url.startsWith('data:application/octet-stream')), JSON.stringify(fetchCalls));
});

test('a yoga-layout whose loader changed stops the build', () => {
	assert.throws(() => yogaWithoutFetchSource(readFileSync(loaderFile, 'utf8').replace('function ya(){', 'function ya2(){')), /not the one/);
});
