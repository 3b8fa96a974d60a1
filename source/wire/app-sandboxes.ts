import {AppCalls, api, type CallOptions, expectOne, Listing, success} from './app-calls.js';
import {sandboxSchema, sandboxSpecSchema, type Sandbox, type SandboxSpec} from './schemas/app.js';

/**
 * The sandboxes and sandbox specs of the app server (app-client.ts): listed, looked up by id
 * (`id`, singular and repeated; null for an unknown one), and a sandbox started, paused,
 * resumed or deleted.
 */

const sandboxesPath = `${api}/sandboxes`;
const specsPath = `${api}/sandbox-specs`;

/** The real server answers 400 above 100 sandbox or spec ids. */
const maxSandboxIds = 100;

export function sandboxListing(calls: AppCalls): Listing<Sandbox> {
	return new Listing(calls, sandboxSchema, sandboxesPath, {param: 'id', chunkSize: maxSandboxIds, keyedBy: 'opaque'});
}

export function sandboxSpecListing(calls: AppCalls): Listing<SandboxSpec> {
	return new Listing(calls, sandboxSpecSchema, specsPath, {param: 'id', chunkSize: maxSandboxIds, keyedBy: 'opaque'});
}

/** POST /sandboxes?sandbox_spec_id=…: the spec id is a query parameter, not a body. */
export async function startSandbox(calls: AppCalls, specId?: string, call: CallOptions = {}): Promise<Sandbox> {
	const raw = await calls.json({method: 'POST', path: sandboxesPath, query: {sandbox_spec_id: specId}, signal: call.signal});
	return expectOne(sandboxSchema, raw, `POST ${sandboxesPath}`);
}

/**
 * Pause returns as soon as the service accepts; the status changes later (poll getSandboxes).
 * Resume can pause the oldest other running sandbox, when the account is at its cap.
 */
export async function sandboxAction(calls: AppCalls, id: string, action: 'pause' | 'resume', call: CallOptions): Promise<{success: boolean}> {
	const path = `${sandboxesPath}/${encodeURIComponent(id)}/${action}`;
	return success(await calls.json({method: 'POST', path, signal: call.signal}), `POST ${path}`);
}

/**
 * DELETE /sandboxes/{id}?sandbox_id={id}. The service's route is declared with `{id}` in the
 * path but its handler reads a `sandbox_id` argument, which FastAPI takes from the query
 * (OpenHands app_server/sandbox/sandbox_router.py, 2026): without `?sandbox_id=` it answers 422.
 * Sending both forms at once works there and on a server that reads the path.
 */
export async function deleteSandbox(calls: AppCalls, id: string, call: CallOptions = {}): Promise<{success: boolean}> {
	const path = `${sandboxesPath}/${encodeURIComponent(id)}`;
	return success(await calls.json({method: 'DELETE', path, query: {sandbox_id: id}, signal: call.signal}), `DELETE ${path}`);
}
