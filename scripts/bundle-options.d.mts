import type {BuildOptions} from 'esbuild';

export declare const sharedBundleOptions: BuildOptions;
