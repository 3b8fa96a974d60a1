import type {Plugin} from 'esbuild';

export declare function yogaWithoutFetchSource(source: string): string;
export declare const yogaWithoutFetch: Plugin;
