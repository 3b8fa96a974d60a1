import {isUuidLike} from '../wire/ids.js';
import {gitChanges, gitDiff} from './git-routes.js';
import {HttpError, notFound, validationError} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import {storedForm} from './stored-form.js';
import {appConversationJson} from './serialize.js';
import {sendZip} from './trajectory-zip.js';
import type {SimConversation} from './world-types.js';

/**
 * App-server routes that reach a conversation's sandbox for the client, with the bearer key
 * alone (OpenHands app_server/app_conversation/app_conversation_router.py, 2026):
 * - `GET …/{id}/git/changes?path=&ref=` and `…/git/diff?path=&ref=` proxy the agent server's git
 *   routes: 404 `Conversation … is not reachable` for an unknown conversation or a sandbox that is
 *   not RUNNING, 409 while it is PAUSED (`Sandbox is paused; resume it before reading git state.`),
 *   and whatever error the agent server answers as 502 `Agent server error: <status>`.
 * - `GET …/{id}/download`: the conversation's stored trajectory as a zip, whatever its sandbox's
 *   status (meta.json and one file per event, from the app server's own copy).
 * The `appGitRoutes` and `appDownload` fault switches take them away, as on an older app server
 * (FastAPI's bare 404), so a client's fallback runs.
 */

const base = '/api/v1/app-conversations';

function conversationOf(context: RouteContext): SimConversation | undefined {
	const id = context.params.id!;
	if (!isUuidLike(id)) throw validationError([{type: 'uuid_parsing', loc: ['path', 'conversation_id'], msg: 'Input should be a valid UUID, invalid length', input: id}]);
	return context.world.findConversation(id);
}

/** The proxied call's path parameter: required, as the router declares it. */
function pathQuery(context: RouteContext): string {
	const path = context.query.get('path');
	if (!path) throw validationError([{type: 'missing', loc: ['query', 'path'], msg: 'Field required', input: null}]);
	return path;
}

/** The sandbox behind a conversation, when it can be reached; the router's errors otherwise. */
function reachable(context: RouteContext) {
	const conversation = conversationOf(context);
	const id = context.params.id!;
	if (!conversation) throw new HttpError(404, {detail: `Conversation ${id} is not reachable`});
	const sandbox = context.world.findSandbox(conversation.sandboxId);
	if (sandbox?.status === 'PAUSED') throw new HttpError(409, {detail: 'Sandbox is paused; resume it before reading git state.'});
	if (!sandbox || sandbox.status !== 'RUNNING') throw new HttpError(404, {detail: `Conversation ${id} is not reachable`});
	return sandbox;
}

/**
 * The agent server's answer as the proxy passes it on: its JSON, or for any error status a 502
 * `Agent server error: <status>` (`_proxy_git_runtime_call`: `raise_for_status`, then
 * HTTPException(502)); the agent server's own words stay in the app server's log.
 */
function proxied<T>(call: () => T): T {
	try {
		return call();
	} catch (error) {
		if (error instanceof HttpError) throw new HttpError(502, {detail: `Agent server error: ${error.status}`});
		throw error;
	}
}

export function registerAppProxyRoutes(router: Router): void {
	router.add('GET', `${base}/:id/git/changes`, 'bearer', (context) => {
		if (!context.world.appGitRoutes) throw notFound();
		const path = pathQuery(context);
		const sandbox = reachable(context);
		return proxied(() => gitChanges(context.world, sandbox, path));
	});

	router.add('GET', `${base}/:id/git/diff`, 'bearer', (context) => {
		if (!context.world.appGitRoutes) throw notFound();
		const path = pathQuery(context);
		const sandbox = reachable(context);
		return proxied(() => gitDiff(context.world, sandbox, path));
	});

	router.add('GET', `${base}/:id/download`, 'bearer', (context) => {
		if (!context.world.appDownload) throw notFound();
		const conversation = conversationOf(context);
		if (!conversation) throw new HttpError(404, {detail: `Conversation ${context.params.id} not found`});
		const events = context.world.storedEvents(conversation);
		sendZip(context.response, `conversation_${conversation.id}.zip`, [
			{name: 'meta.json', data: Buffer.from(JSON.stringify(appConversationJson(context.world, conversation)))},
			...events.map((event, index) => ({name: `event_${String(index).padStart(6, '0')}_${event.id}.json`, data: Buffer.from(JSON.stringify(storedForm(event)))})),
		]);
		return undefined;
	});
}
