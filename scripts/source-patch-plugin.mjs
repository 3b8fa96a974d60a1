import {readFile} from 'node:fs/promises';

/**
 * An esbuild plugin that passes every file matching `filter` through `patch` (its source in, the
 * source to bundle out). Each patch throws when a dependency's file is not the one it was written
 * for, so an upgrade stops the build rather than shipping a patch that no longer fits.
 */
export function sourcePatchPlugin(name, filter, patch) {
	return {
		name,
		setup(build) {
			build.onLoad({filter}, async (args) => ({contents: patch(await readFile(args.path, 'utf8')), loader: 'js'}));
		},
	};
}
