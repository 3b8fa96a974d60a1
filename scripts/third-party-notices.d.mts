import type {Metafile} from 'esbuild';

export type BundledPackage = {name: string; version: string; license: string; text: string; where: string};

export declare function thirdPartyNotices(metafile: Metafile, root?: string): {packages: BundledPackage[]; text: string};
