import type {Plugin} from 'esbuild';

export declare function cachedSanitizeAnsiSource(source: string): string;
export declare const cachedSanitizeAnsi: Plugin;
