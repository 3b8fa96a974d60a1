export declare const stampFile: string;
export declare function buildInputsHash(): string;
export declare function builtFromHash(): string | null;
