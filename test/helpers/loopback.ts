import {createServer, type RequestListener} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {TestContext} from 'node:test';

/**
 * A plain HTTP server answering with `handler` on a free loopback port, for what the simulator
 * does not do (a server that stalls, trickles or lies): its base URL. Its connections are cut
 * and it closes when the test ends.
 */
export async function loopbackServer(t: TestContext, handler: RequestListener): Promise<string> {
	const server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	t.after(() => {
		server.closeAllConnections();
		server.close();
	});
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
