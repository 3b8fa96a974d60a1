import {readFileSync} from 'node:fs';
import Module, {registerHooks} from 'node:module';
import {fileURLToPath} from 'node:url';
import {applyPatch, patchFor} from '../source/boundary/source-patches.mjs';

/**
 * Applies source/boundary/source-patches.mjs to the dependencies as Node loads them, the way the
 * bundle has them: `npm test` and `npm run bench` import this first (`--import`), so the tests and
 * the bench run the code that ships. A test file run on its own without it runs the unpatched
 * files, which give the same results, only slower (test/boundary.test.tsx checks that).
 */
registerHooks({
	load(url, context, nextLoad) {
		if (!url.startsWith('file:')) return nextLoad(url, context);
		const path = fileURLToPath(url);
		const patch = patchFor(path);
		if (!patch) return nextLoad(url, context);
		// The file as published, read here: tsx, the loader after this one, rewrites a module that
		// holds a dynamic import() (Ink's reconciler does), so its text is not the one the patch names.
		// Every patched file is plain JavaScript that needs no compiling, an ES module unless it says CommonJS.
		return {format: patch.format ?? 'module', source: applyPatch(patch, readFileSync(path, 'utf8')), shortCircuit: true};
	},
});

/**
 * tsx compiles the CommonJS files it is asked to require itself (its own handler for `.js`), so
 * a CommonJS patch is applied there too: the handler in place (tsx's, or Node's) is kept for every
 * other file. Under tsx the load hook above never sees a required file; without tsx this handler
 * reads the file itself, so a file is patched once either way.
 */
const extensions = Module._extensions;
const loadJs = extensions['.js'];
extensions['.js'] = function (module, filename) {
	const patch = patchFor(filename);
	if (patch?.format !== 'commonjs') return loadJs.call(this, module, filename);
	module._compile(applyPatch(patch, readFileSync(filename, 'utf8')), filename);
};
