import {isUuidLike} from '../wire/ids.js';
import {pauseConversation, respondToConfirmation, runConversation, sendUserMessage} from './agent-runtime.js';
import {messageText} from './app-routes.js';
import {countEvents, searchEvents} from './event-query.js';
import {enumQuery, HttpError, intQuery, isRecord, notFound, offsetPage, offsetPageId, readJson, requireObjectBody, validationError} from './http-util.js';
import type {RouteContext, Router} from './router.js';
import {conversationInfoJson} from './serialize.js';
import {sendZip} from './trajectory-zip.js';
import type {SimConversation} from './world-types.js';
import {spaPage} from './spa-page.js';
import {storedForm} from './stored-form.js';
import {registerAskRoutes} from './ask-routes.js';

/**
 * The agent server of one sandbox, served under `/runtime/<n>` (the path prefix a proxied
 * deployment has; docs/service-behaviour.md §2, §3). Every `/api` route needs X-Session-API-Key.
 */

const prefix = '/runtime/:n';
const api = `${prefix}/api/conversations`;

function inSandbox(context: RouteContext, id: string): SimConversation | undefined {
	const conversation = context.world.findConversation(id);
	return conversation && conversation.sandboxId === context.sandbox?.id ? conversation : undefined;
}

/** The `{id}` path parameter: 422 when it is not a UUID (FastAPI), undefined when unknown here. */
function pathConversation(context: RouteContext): SimConversation | undefined {
	const id = context.params.id!;
	if (!isUuidLike(id)) {
		throw validationError([{type: 'uuid_parsing', loc: ['path', 'conversation_id'], msg: 'Input should be a valid UUID, invalid character', input: id}]);
	}
	return inSandbox(context, id);
}

function requireConversation(context: RouteContext): SimConversation {
	const conversation = pathConversation(context);
	if (!conversation) throw notFound();
	return conversation;
}

function listed(context: RouteContext): SimConversation[] {
	const status = context.query.get('status');
	return (context.sandbox?.conversationIds ?? [])
		.map((id) => context.world.findConversation(id))
		.filter((row): row is SimConversation => row !== undefined)
		.filter((row) => !status || (context.world.agent(row), row.executionStatus === status));
}

export function registerAgentRoutes(router: Router, startedAt: number): void {
	router.add('GET', `${prefix}/alive`, 'none', () => ({status: 'ok'}));
	router.add('GET', `${prefix}/health`, 'none', () => ({status: 'ok'}));
	router.add('GET', `${prefix}/ready`, 'none', () => ({status: 'ready'}));
	router.add('GET', `${prefix}/server_info`, 'none', () => ({
		uptime: (Date.now() - startedAt) / 1000,
		idle_time: 0,
		version: '1.4.1',
		sdk_version: '1.4.1',
		tools_version: '1.4.1',
		build_git_sha: 'sim0000',
		usable_tools: ['terminal', 'file_editor', 'task_tracker', 'browser_navigate', 'browser_click', 'think', 'finish'],
		capabilities: ['events', 'sockets', 'confirmation'],
		runtime_idle_timeout_seconds: 1800,
	}));

	router.add('GET', `${api}/search`, 'session', (context) => {
		const limit = intQuery(context.query, 'limit', {fallback: 100, exclusiveMin: 0, max: 100});
		const order = enumQuery(context.query, 'sort_order', ['CREATED_AT', 'UPDATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT_DESC'] as const, 'CREATED_AT_DESC');
		const field = order.startsWith('UPDATED') ? 'updatedAt' : 'createdAt';
		const rows = listed(context).sort((a, b) => (order.endsWith('DESC') ? -1 : 1) * (a[field] - b[field]));
		return offsetPage(rows, offsetPageId(context.query), limit, (row) => conversationInfoJson(context.world, row));
	});

	router.add('GET', `${api}/count`, 'session', (context) => listed(context).length);

	router.add('GET', api, 'session', (context) => {
		const ids = context.query.getAll('ids');
		if (ids.length >= 100) throw new HttpError(400, {detail: 'Too many ids requested. Maximum is 99.'});
		return ids.map((id) => {
			const row = isUuidLike(id) ? inSandbox(context, id) : undefined;
			return row ? conversationInfoJson(context.world, row) : null;
		});
	});

	router.add('GET', `${api}/:id`, 'session', (context) => conversationInfoJson(context.world, requireConversation(context)));

	router.add('PATCH', `${api}/:id`, 'session', async (context) => {
		const conversation = requireConversation(context);
		const body = requireObjectBody(await readJson(context.request));
		if (body.title !== undefined) {
			if (typeof body.title !== 'string' || body.title.length < 1 || body.title.length > 200) {
				throw validationError([{type: 'string_too_long', loc: ['body', 'title'], msg: 'Title must be 1 to 200 characters', input: body.title}]);
			}
			conversation.title = body.title;
		}
		return {success: true};
	});

	// The real server answers 400, not 404, when pausing an unknown conversation. Both stop one
	// agent at once here (a scripted step has no model call in flight to wait for); the sandbox
	// and the other conversations in it go on.
	for (const action of ['pause', 'interrupt']) {
		router.add('POST', `${api}/:id/${action}`, 'session', (context) => {
			if (action === 'interrupt' && context.world.interruptMissing === 404) throw notFound();
			if (action === 'interrupt' && context.world.interruptMissing === 405) throw new HttpError(405, {detail: 'Method Not Allowed'});
			const conversation = pathConversation(context);
			if (!conversation) throw new HttpError(400, {detail: `Conversation not found: ${context.params.id}`});
			pauseConversation(context.world, conversation);
			return {success: true};
		});
	}

	router.add('POST', `${api}/:id/run`, 'session', (context) => {
		const conversation = requireConversation(context);
		if (runConversation(context.world, conversation) === 'already-running') {
			throw new HttpError(409, {detail: 'Conversation already running. Wait for it to finish or pause it first.'});
		}
		return {success: true};
	});

	// `run` defaults to false here: without run:true the agent does not start (docs/service-behaviour.md §3).
	router.add('POST', `${api}/:id/events`, 'session', async (context) => {
		const conversation = requireConversation(context);
		const body = requireObjectBody(await readJson(context.request));
		const text = messageText(body);
		sendUserMessage(context.world, conversation, text, body.run === true);
		return {success: true};
	});

	router.add('POST', `${api}/:id/events/respond_to_confirmation`, 'session', async (context) => {
		const conversation = requireConversation(context);
		const body = requireObjectBody(await readJson(context.request));
		if (typeof body.accept !== 'boolean') {
			throw validationError([{type: body.accept === undefined ? 'missing' : 'bool_type', loc: ['body', 'accept'], msg: body.accept === undefined ? 'Field required' : 'Input should be a valid boolean', input: body.accept ?? null}]);
		}
		respondToConfirmation(context.world, conversation, body.accept, typeof body.reason === 'string' ? body.reason : undefined);
		return {success: true};
	});

	router.add('POST', `${api}/:id/confirmation_policy`, 'session', async (context) => {
		const conversation = requireConversation(context);
		const body = requireObjectBody(await readJson(context.request));
		if (!isRecord(body.policy) || typeof body.policy.kind !== 'string') {
			throw validationError([{type: 'missing', loc: ['body', 'policy', 'kind'], msg: 'Field required', input: body.policy ?? null}]);
		}
		conversation.confirmationPolicy = body.policy;
		return {success: true};
	});

	// The conversation's stored folder as a zip: its metadata and one JSON file per event.
	router.add('GET', `${prefix}/api/file/download-trajectory/:id`, 'session', (context) => {
		const conversation = requireConversation(context);
		if (context.world.noTrajectory) throw notFound();
		if (context.world.trajectoryPage) {
			// A proxy in front of the agent server that answers its own web page (the `trajectoryPage` fault).
			context.response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
			context.response.end(spaPage);
			return undefined;
		}
		const events = context.world.events(conversation);
		const files = [
			{name: 'meta.json', data: Buffer.from(JSON.stringify(conversationInfoJson(context.world, conversation)))},
			...events.map((event, index) => ({name: `events/event-${String(index).padStart(5, '0')}-${event.id}.json`, data: Buffer.from(JSON.stringify(event))})),
		];
		sendZip(context.response, `trajectory-${conversation.id}.zip`, files);
		return undefined;
	});

	registerAskRoutes(router, api, requireConversation);

	router.add('GET', `${api}/:id/events/search`, 'session', (context) => searchEvents(context.world.events(requireConversation(context)), context.query));

	router.add('GET', `${api}/:id/events/count`, 'session', (context) => countEvents(context.world.events(requireConversation(context)), context.query));

	router.add('GET', `${api}/:id/events/:eventId`, 'session', (context) => {
		const conversation = requireConversation(context);
		const event = context.world.agent(conversation).log.get(context.params.eventId!);
		if (!event) throw notFound();
		// This one route returns the event model as it is, null fields kept (SDK openhands-agent-server/openhands/agent_server/event_router.py get_conversation_event; search dumps with exclude_none).
		return storedForm(event);
	});
}
