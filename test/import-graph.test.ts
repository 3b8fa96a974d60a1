import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, sep} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import ts from 'typescript';

/**
 * The layers of source/ point one way (docs/layers.md). Every file's imports are read (static
 * `import` and `export … from`, side-effect imports, dynamic `import()`, type-only imports too)
 * with TypeScript's own pre-processor, so an import-shaped line inside a template string (the
 * simulator's corpus) is not taken for one. Each file belongs to the layer of its first folder
 * under source/; the files directly in source/ are the command line's entry.
 */

/** Bottom to top: a layer may import itself and the layers below it, never one above. */
const stack = ['boundary', 'wire', 'config', 'format', 'state', 'terminal', 'view', 'commands', 'cli'] as const;

/**
 * Beside the stack: the simulator, an embedded fake server. It may use the wire's schemas and
 * types (the protocol it speaks) and the boundary, nothing of the client's state or screen, and
 * only the layers named in `usedBy` start it.
 */
const beside: Readonly<Record<string, {uses: readonly string[]; usedBy: readonly string[]}>> = {
	simulator: {uses: ['boundary', 'wire'], usedBy: ['commands', 'cli']},
};

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceRoot = join(root, 'source');
const sourceFile = /\.(ts|tsx|mts|mjs)$/;

function* sourceFiles(folder: string): Generator<string> {
	for (const entry of readdirSync(folder, {withFileTypes: true})) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) yield* sourceFiles(path);
		else if (entry.isFile() && sourceFile.test(entry.name)) yield path;
	}
}

const name = (path: string) => relative(root, path).split(sep).join('/');

function layerOf(file: string): string {
	const parts = relative(sourceRoot, file).split(sep);
	return parts.length === 1 ? 'cli' : parts[0]!;
}

/** The file a relative specifier names: `./x.js` is x.ts or x.tsx, `./x.mjs` is x.mjs or x.mts. */
function resolve(from: string, specifier: string): string | undefined {
	const base = join(dirname(from), specifier);
	const stem = base.replace(/\.(js|jsx|mjs|cjs|ts|tsx)$/, '');
	const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, `${stem}.d.ts`, join(base, 'index.ts')];
	return candidates.find((candidate) => candidate.startsWith(sourceRoot + sep) && existsSync(candidate) && sourceFile.test(candidate));
}

type Graph = Map<string, Set<string>>;

function importGraph(): Graph {
	const graph: Graph = new Map();
	for (const file of sourceFiles(sourceRoot)) {
		const targets = new Set<string>();
		const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
		for (const {fileName} of importedFiles) {
			if (!fileName.startsWith('.')) continue;
			const target = resolve(file, fileName);
			if (target !== undefined && target !== file) targets.add(name(target));
		}
		graph.set(name(file), targets);
	}
	return graph;
}

function mayImport(from: string, to: string): boolean {
	if (from === to) return true;
	const side = beside[to];
	if (side !== undefined) return side.usedBy.includes(from);
	const own = beside[from];
	if (own !== undefined) return own.uses.includes(to);
	const fromRank = stack.indexOf(from as (typeof stack)[number]);
	const toRank = stack.indexOf(to as (typeof stack)[number]);
	return fromRank !== -1 && toRank !== -1 && toRank < fromRank;
}

/** Tarjan's strongly connected components; those of more than one file are circles. */
function circles(graph: Graph): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stackOfFiles: string[] = [];
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, counter);
		low.set(file, counter);
		counter++;
		stackOfFiles.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
		}
		if (low.get(file) === index.get(file)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stackOfFiles.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== file);
			if (component.length > 1) found.push(component.sort());
		}
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
	return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const graph = importGraph();

test('the graph is read: files of every layer, with their imports, dynamic and type-only ones among them', () => {
	const layers = new Set([...graph.keys()].map((file) => layerOf(join(root, file))));
	for (const layer of [...stack, ...Object.keys(beside)]) assert.ok(layers.has(layer), `files in the ${layer} layer`);
	for (const layer of layers) assert.ok(stack.includes(layer as (typeof stack)[number]) || layer in beside, `${layer}/ is in the layer table`);
	// A dynamic import (cli.tsx loads the simulator command on demand) and a type-only one are edges.
	assert.ok(graph.get('source/cli.tsx')!.has('source/commands/simulator.ts'));
	assert.ok(graph.get('source/state/conversation-poller.ts')!.has('source/wire/schemas/app.ts'));
	const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
	assert.ok(edges > 1000, `${edges} imports read`);
});

test('every import points down the layers (or sideways to the simulator from the commands)', () => {
	const upward: string[] = [];
	for (const [file, targets] of graph) {
		const from = layerOf(join(root, file));
		for (const target of targets) {
			const to = layerOf(join(root, target));
			if (!mayImport(from, to)) upward.push(`${file} -> ${target} (${from}/ -> ${to}/)`);
		}
	}
	assert.deepEqual(upward.sort(), []);
});

test('no files import each other in a circle', () => {
	assert.deepEqual(circles(graph), []);
});

test('the checks see what they guard: an upward arrow and a circle in a made-up graph', () => {
	assert.equal(mayImport('boundary', 'format'), false);
	assert.equal(mayImport('view', 'state'), true);
	assert.equal(mayImport('state', 'simulator'), false);
	assert.equal(mayImport('commands', 'simulator'), true);
	assert.equal(mayImport('simulator', 'state'), false);
	const made: Graph = new Map([
		['a', new Set(['b'])],
		['b', new Set(['c'])],
		['c', new Set(['a', 'd'])],
		['d', new Set()],
	]);
	assert.deepEqual(circles(made), [['a', 'b', 'c']]);
});
