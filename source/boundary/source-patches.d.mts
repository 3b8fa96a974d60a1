export type SourcePatch = {
	package: string;
	version: string;
	/** The file inside the package, as `/`-separated path. */
	file: string;
	/** The sha256 of the file's text as published. */
	sha256: string;
	why: string;
	/** How the file is loaded: an ES module unless it says CommonJS. */
	format?: 'commonjs';
	/** Each `find` occurs exactly once in the file and becomes `replace`. */
	edits: ReadonlyArray<{find: string; replace: string}>;
};

export declare const sourcePatches: readonly SourcePatch[];
export declare const patchedPaths: RegExp;
export declare function patchFor(path: string): SourcePatch | undefined;
export declare function applyPatch(patch: SourcePatch, text: string): string;
