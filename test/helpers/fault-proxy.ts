import net from 'node:net';

/**
 * A TCP proxy on loopback for network-fault tests, in front of any server (the simulator's app
 * API, an agent server, a WebSocket). Each new connection gets the mode set at the time:
 * - `pass`: forward both ways (with `latencyMs` added to every chunk, when set)
 * - `reset`: accept, then reset (RST) at once
 * - `accept-then-close`: accept, then close cleanly at once
 * - `silent`: accept and read, forward nothing and never answer (a half-open peer)
 * - `slow-body`: forward the request; the answer trickles back at `bytesPerSecond`
 * - `reset-mid-body`: forward the request; after `afterBytes` of the answer, reset
 */

export type FaultMode = 'pass' | 'reset' | 'accept-then-close' | 'silent' | 'slow-body' | 'reset-mid-body';

export type FaultProxy = {
	/** `http://127.0.0.1:PORT`: use it where the real server's origin would go. */
	url: string;
	port: number;
	mode: FaultMode;
	latencyMs: number;
	bytesPerSecond: number;
	afterBytes: number;
	/** Connections accepted so far (each reconnect attempt is one). */
	connections: number;
	close(): Promise<void>;
};

export async function startFaultProxy(target: {host?: string; port: number}): Promise<FaultProxy> {
	const sockets = new Set<net.Socket>();
	const timers = new Set<NodeJS.Timeout>();
	const later = (ms: number, run: () => void) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			run();
		}, ms);
		timers.add(timer);
	};
	const track = (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
	};

	const proxy: FaultProxy = {url: '', port: 0, mode: 'pass', latencyMs: 0, bytesPerSecond: 1024, afterBytes: 256, connections: 0, close: async () => undefined};
	const server = net.createServer((client) => {
		track(client);
		proxy.connections++;
		const mode = proxy.mode;
		if (mode === 'reset') return void client.resetAndDestroy();
		if (mode === 'accept-then-close') return void client.end();
		if (mode === 'silent') return void client.resume();
		const upstream = net.connect({host: target.host ?? '127.0.0.1', port: target.port});
		track(upstream);
		client.on('close', () => upstream.destroy());
		// A slow body keeps dripping what was queued after the server is done with it.
		if (mode !== 'slow-body') upstream.on('close', () => client.destroy());
		const forward = (from: net.Socket, to: net.Socket) =>
			from.on('data', (chunk: Buffer) => (proxy.latencyMs > 0 ? later(proxy.latencyMs, () => to.write(chunk)) : to.write(chunk)));
		forward(client, upstream);
		if (mode === 'pass') return void forward(upstream, client);
		if (mode === 'reset-mid-body') {
			let sent = 0;
			upstream.on('data', (chunk: Buffer) => {
				if (sent >= proxy.afterBytes) return;
				const part = chunk.subarray(0, proxy.afterBytes - sent);
				sent += part.length;
				client.write(part);
				if (sent >= proxy.afterBytes) later(20, () => client.resetAndDestroy());
			});
			return;
		}
		// slow-body: queue what the server sends and release it at the configured rate.
		let queue = Buffer.alloc(0);
		upstream.on('data', (chunk: Buffer) => {
			queue = Buffer.concat([queue, chunk]);
		});
		const tickMs = 100;
		const drip = () => {
			if (client.destroyed) return;
			const size = Math.max(1, Math.floor((proxy.bytesPerSecond * tickMs) / 1000));
			if (queue.length > 0) {
				client.write(queue.subarray(0, size));
				queue = queue.subarray(size);
			}
			later(tickMs, drip);
		};
		drip();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	proxy.port = port;
	proxy.url = `http://127.0.0.1:${port}`;
	proxy.close = async () => {
		for (const timer of timers) clearTimeout(timer);
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return proxy;
}
