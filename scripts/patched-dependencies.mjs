import {registerHooks} from 'node:module';
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
		const result = nextLoad(url, context);
		if (!url.startsWith('file:')) return result;
		const patch = patchFor(fileURLToPath(url));
		if (!patch || result.source === undefined || result.source === null) return result;
		const text = typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
		return {...result, source: applyPatch(patch, text)};
	},
});
