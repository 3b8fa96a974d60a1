import type {ResolvedConfig} from '../config/resolve.js';
import {AppClient} from '../wire/app-client.js';
import {closeHttpAgent} from '../wire/http.js';
import {Secret} from '../wire/secret.js';
import {addSecret, note, type Io} from './io.js';

/**
 * The server a headless command talks to: the configured app server, or an in-process
 * simulator when there is none (or with --demo). Retries and skipped items are reported on
 * stderr, so a slow run explains itself without touching stdout.
 */
export type Server = {
	app: AppClient;
	baseUrl: string;
	label: string;
	demo: boolean;
	close(): Promise<void>;
};

export async function openServer(config: ResolvedConfig, io: Io): Promise<Server> {
	let baseUrl: string;
	let apiKey: Secret | null;
	let label: string;
	let stopSimulator: (() => Promise<void>) | null = null;
	if (config.kind === 'demo') {
		if (config.reason === 'unconfigured') note(io, 'no server configured; using the embedded demo simulator');
		// Loaded only here: a configured run never pays for the simulator.
		const {startSimulator} = await import('../simulator/server.js');
		const simulator = await startSimulator({port: 0});
		stopSimulator = () => simulator.close();
		baseUrl = simulator.baseUrl;
		apiKey = new Secret(simulator.apiKey);
		label = 'DEMO';
	} else {
		({baseUrl, apiKey, label} = config);
	}
	addSecret(io, apiKey);

	const app = new AppClient({
		baseUrl,
		apiKey,
		onRetry: (info) => note(io, `${info.reason}; retrying in ${(info.delayMs / 1000).toFixed(1)} s`),
		onInvalid: (item, where) => note(io, `warning: skipped an item from ${where} that does not match the API: ${item.message}`),
		onWarning: (message) => note(io, `warning: ${message}`),
	});

	return {
		app,
		baseUrl,
		label,
		demo: config.kind === 'demo',
		async close() {
			await Promise.allSettled([app.close(), stopSimulator?.()]);
			await closeHttpAgent();
		},
	};
}
