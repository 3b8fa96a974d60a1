import type {IncomingMessage, ServerResponse} from 'node:http';
import type {FaultState} from './faults.js';
import {HttpError, intQuery, isRecord, readJson, sendJson} from './http-util.js';
import type {World} from './world.js';

/**
 * `/_sim/*`: steering a simulator that runs in another process (tmux end-to-end tests). No auth,
 * not counted in request statistics, never faulted: it is the test harness's own channel.
 */
export async function handleControl(request: IncomingMessage, response: ServerResponse, url: URL, world: World, faults: FaultState): Promise<void> {
	const route = `${request.method} ${url.pathname.replace(/\/$/, '')}`;
	try {
		switch (route) {
			case 'GET /_sim/faults':
				return sendJson(response, 200, faults.snapshot());
			case 'POST /_sim/faults': {
				const body = (await readJson(request)) ?? {};
				if (!isRecord(body)) throw new HttpError(400, {detail: 'Expected a JSON object of fault switches.'});
				const applied = faults.applyJson(body);
				return sendJson(response, 200, {applied, faults: faults.snapshot()});
			}
			case 'POST /_sim/step': {
				const n = intQuery(url.searchParams, 'n', {fallback: 1, min: 1, max: 10_000});
				world.step(n);
				return sendJson(response, 200, {stepped: n});
			}
			case 'POST /_sim/sandbox': {
				// What the runtime provider reports: `{"id": "sb-…", "status": "UNKNOWN", "detail": "…"}`
				// (any status word; `conversation` may name one of its conversations instead of `id`).
				const body = (await readJson(request)) ?? {};
				if (!isRecord(body) || typeof body.status !== 'string' || body.status === '') throw new HttpError(400, {detail: 'Expected {"id" or "conversation", "status", "detail"?}.'});
				const byConversation = typeof body.conversation === 'string' ? world.findConversation(body.conversation) : undefined;
				const sandbox = world.findSandbox(typeof body.id === 'string' ? body.id : (byConversation?.sandboxId ?? ''));
				if (!sandbox) throw new HttpError(404, {detail: 'No such sandbox.'});
				world.setSandboxStatus(sandbox, body.status, typeof body.detail === 'string' ? body.detail : null);
				return sendJson(response, 200, {id: sandbox.id, status: sandbox.status, status_detail: sandbox.statusDetail});
			}
			case 'GET /_sim/info':
				return sendJson(response, 200, {
					baseUrl: world.baseUrl,
					seed: world.options.seed,
					conversations: world.conversationList().length,
					sandboxes: world.sandboxList().length,
					running: world.sandboxList().filter((sandbox) => sandbox.status === 'RUNNING').length,
				});
			default:
				return sendJson(response, 404, {detail: 'Not Found'});
		}
	} catch (error) {
		if (error instanceof HttpError) return sendJson(response, error.status, error.body, error.headers);
		return sendJson(response, 500, {detail: String(error)});
	}
}
