import {PassThrough} from 'node:stream';
import type {TestContext} from 'node:test';
import type {Io} from '../../source/commands/io.js';
import {withBudget, type Server} from '../../source/commands/server.js';
import type {Simulator} from '../../source/simulator/server.js';
import {AppClient, type AppClientOptions} from '../../source/wire/app-client.js';
import {Secret} from '../../source/wire/secret.js';
import {Transport} from '../../source/wire/transport.js';

/**
 * The headless commands' Server, as the CLI opens one (commands/server.ts), for tests that call a
 * command in-process against the simulator.
 */

/** The Server over `app` on `sim`, with a request budget of its own; closing it closes `app` (and `transport`). */
export function commandServer(sim: Simulator, app: AppClient, options: {label?: string; transport?: Transport} = {}): Server {
	const {label = 'test', transport} = options;
	return withBudget({
		app,
		baseUrl: sim.baseUrl,
		label,
		demo: false,
		...(transport === undefined ? {} : {transport}),
		close: async () => {
			await app.close();
			await transport?.close();
		},
	});
}

/**
 * An app client (an `App`, AppClient or a subclass a test steers) on `sim` through a transport of
 * its own, no retries, and the Server over it (labelled 'sim'); the server, then the simulator,
 * closed when the test ends.
 */
export function serverOnOwnTransport<A extends AppClient>(t: TestContext, sim: Simulator, App: new (options: AppClientOptions) => A): {app: A; server: Server} {
	const transport = new Transport();
	const app = new App({baseUrl: sim.baseUrl, apiKey: new Secret(sim.apiKey), transport, maxRetries: 0});
	const server = commandServer(sim, app, {label: 'sim', transport});
	t.after(async () => {
		await server.close();
		await sim.close();
	});
	return {app, server};
}

/**
 * A command's Server on `sim` (a plain AppClient with the simulator's key) and its Io: stdout and
 * stderr collected (stdout a terminal with `tty`), the key among the secrets to keep out of them.
 */
export function commandOn(sim: Simulator, options: {tty?: boolean} = {}): {server: Server; io: Io; out: () => Buffer; err: () => string} {
	const stdout = Object.assign(new PassThrough(), {isTTY: options.tty ?? false});
	const chunks: Buffer[] = [];
	stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
	const stderr = new PassThrough();
	let errText = '';
	stderr.on('data', (chunk: Buffer) => (errText += chunk.toString()));
	const io: Io = {stdout, stderr, secrets: [sim.apiKey], debug: false};
	const app = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey});
	return {server: commandServer(sim, app), io, out: () => Buffer.concat(chunks), err: () => errText};
}
