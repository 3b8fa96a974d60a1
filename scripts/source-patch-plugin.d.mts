import type {Plugin} from 'esbuild';

export declare function sourcePatchPlugin(name: string, filter: RegExp, patch: (source: string) => string): Plugin;
