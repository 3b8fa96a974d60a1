// Types for the undici files undici-parts.ts loads by path (the package types only its index).
declare module 'undici/lib/dispatcher/agent.js' {
	import {Agent} from 'undici';
	export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
	import type {Dispatcher} from 'undici';
	const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
	export default request;
}

declare module 'undici/lib/core/errors.js' {
	import {errors} from 'undici';
	const all: typeof errors;
	export default all;
}
