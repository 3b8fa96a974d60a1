export declare function asciiOutput(directory: string): void;
export declare function asciiSource(text: string, name?: string): string;
