import {setFlagsFromString} from 'node:v8';

/**
 * V8 sizes its heap for speed by default: between collections the heap grows well past what is
 * live, and the pages come back slowly. A dashboard that follows a stream for hours allocates
 * steadily (every frame read, every event dropped from the window) and holds little. Following
 * 50,000 events of a real conversation's sizes it stayed at 349 MB resident that way, 188 MB with
 * the heap sized for memory; the timeline's key-to-frame figures stay where they were
 * (`npm run bench -- --only=real-stream,timeline --bundled`). Set as the process starts.
 */
export function preferMemoryOverSpeed(): void {
	setFlagsFromString('--optimize-for-size');
}
