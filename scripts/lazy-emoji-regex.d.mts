import type {Plugin} from 'esbuild';

export declare function lazyEmojiRegexSource(source: string): string;
export declare const lazyEmojiRegex: Plugin;
