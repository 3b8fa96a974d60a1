import {EventEmitter} from 'node:events';

/**
 * A TTY stdin for Ink in memory: `write` hands Ink one chunk the way a terminal's read would
 * (a `readable` event, then `read()` returns it once). No Ink import here, so the bench can use
 * it before it has set the environment Ink reads when it loads.
 */
export class FakeStdin extends EventEmitter {
	isTTY = true;
	data: string | null = null;
	write = (data: string) => {
		this.data = data;
		this.emit('readable');
		this.emit('data', data);
	};
	setEncoding() {}
	setRawMode() {}
	resume() {}
	pause() {}
	ref() {}
	unref() {}
	read = () => {
		const {data} = this;
		this.data = null;
		return data;
	};
}
