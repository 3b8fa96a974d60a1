import {isUuidLike, normalizeId} from '../wire/ids.js';
import {parseUtcQuery} from './clock.js';
import {validateCreateRequest} from './create-request.js';
import {enumQuery, HttpError, intQuery, notFound, offsetPage, offsetPageId, readJson, requireObjectBody, validationError} from './http-util.js';
import type {Router} from './router.js';
import {startTaskJson} from './serialize.js';
import {createStartTask} from './start-tasks.js';
import type {SimStartTask} from './world-types.js';
import type {World} from './world.js';

/** Creating conversations (plain and streamed) and reading start tasks. */

const base = '/api/v1/app-conversations';
const sortOrders = ['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC'] as const;

function taskFilter(world: World, query: URLSearchParams): SimStartTask[] {
	const conversationId = query.get('conversation_id__eq');
	if (conversationId && !isUuidLike(conversationId)) {
		throw validationError([{type: 'uuid_parsing', loc: ['query', 'conversation_id__eq'], msg: 'Input should be a valid UUID', input: conversationId}]);
	}
	const createdRaw = query.get('created_at__gte');
	const createdGte = createdRaw ? parseUtcQuery(createdRaw) : null;
	if (createdRaw && createdGte === null) {
		throw validationError([{type: 'datetime_from_date_parsing', loc: ['query', 'created_at__gte'], msg: 'Input should be a valid datetime', input: createdRaw}]);
	}
	const wanted = conversationId ? normalizeId(conversationId) : null;
	return world
		.startTaskList()
		.filter((task) => (wanted === null || task.appConversationId === wanted) && (createdGte === null || task.createdAt >= createdGte));
}

function sorted(tasks: SimStartTask[], order: (typeof sortOrders)[number]): SimStartTask[] {
	const field = order.startsWith('UPDATED') ? 'updatedAt' : 'createdAt';
	const direction = order.endsWith('DESC') ? -1 : 1;
	// The list is newest first; a stable sort keeps creation order among equal timestamps.
	return [...tasks].sort((a, b) => direction * (a[field] - b[field]));
}

export function registerStartRoutes(router: Router): void {
	router.add('POST', base, 'bearer', async ({world, request}) => {
		const body = validateCreateRequest(requireObjectBody(await readJson(request)));
		return startTaskJson(createStartTask(world, body));
	});

	/**
	 * One JSON array written as the task moves (docs/service-behaviour.md §1.3): `[\n`, the first task,
	 * `,\n` + a snapshot per phase, `\n]` after READY or ERROR. TRUNCATE_START cuts the connection
	 * right after the first element, like an early failure on the real service.
	 */
	router.add('POST', `${base}/stream-start`, 'bearer', async ({world, request, response}) => {
		// An older V1 server (the noStreamStart fault): the route is not there, FastAPI's bare 404.
		if (world.noStreamStart) throw notFound();
		const body = validateCreateRequest(requireObjectBody(await readJson(request)));
		const task = createStartTask(world, body);
		response.writeHead(200, {'content-type': 'application/json', 'cache-control': 'no-cache'});
		response.flushHeaders();
		const first = `[\n${JSON.stringify(startTaskJson(task))}`;
		if (task.outcome === 'truncate') {
			response.write(first, () => response.socket?.destroy());
			return;
		}
		response.write(first);
		const listener = (current: SimStartTask) => {
			response.write(`,\n${JSON.stringify(startTaskJson(current))}`);
			if (current.status === 'READY' || current.status === 'ERROR') {
				task.listeners.delete(listener);
				response.end('\n]');
			}
		};
		task.listeners.add(listener);
		// A client that goes away stops the stream, not the start: the task carries on.
		response.on('close', () => task.listeners.delete(listener));
	});

	router.add('GET', `${base}/start-tasks`, 'bearer', ({world, query}) => {
		const ids = query.getAll('ids');
		if (ids.length === 0) throw validationError([{type: 'missing', loc: ['query', 'ids'], msg: 'Field required', input: null}]);
		if (ids.length > 100) throw new HttpError(400, {detail: 'Too many ids requested. Maximum is 100.'});
		return ids.map((id) => {
			const task = isUuidLike(id) ? world.findStartTask(id) : undefined;
			return task ? startTaskJson(task) : null;
		});
	});

	router.add('GET', `${base}/start-tasks/search`, 'bearer', ({world, query}) => {
		const limit = intQuery(query, 'limit', {fallback: 100, min: 1, max: 100});
		const order = enumQuery(query, 'sort_order', sortOrders, 'CREATED_AT_DESC');
		return offsetPage(sorted(taskFilter(world, query), order), offsetPageId(query), limit, startTaskJson);
	});

	router.add('GET', `${base}/start-tasks/count`, 'bearer', ({world, query}) => taskFilter(world, query).length);
}
