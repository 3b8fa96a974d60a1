import {HttpError, intQuery, notFound, offsetPage, offsetPageId, validationError} from './http-util.js';
import type {Router} from './router.js';
import {deleteSandbox, pauseSandbox, resumeSandbox, startSandbox} from './sandbox-lifecycle.js';
import {sandboxJson, specJson} from './serialize.js';

/** Sandboxes and sandbox specs (docs/service-behaviour.md §1.2). Batch reads use the singular `id`. */

function batchIds(query: URLSearchParams): string[] {
	const ids = query.getAll('id');
	if (ids.length === 0) throw validationError([{type: 'missing', loc: ['query', 'id'], msg: 'Field required', input: null}]);
	if (ids.length > 100) throw new HttpError(400, {detail: 'Too many ids requested. Maximum is 100.'});
	return ids;
}

export function registerSandboxRoutes(router: Router): void {
	router.add('GET', '/api/v1/sandboxes/search', 'bearer', ({world, query}) => {
		const limit = intQuery(query, 'limit', {fallback: 100, min: 1, max: 100});
		return offsetPage(world.sandboxList(), offsetPageId(query), limit, (sandbox) => sandboxJson(world, sandbox));
	});

	router.add('GET', '/api/v1/sandboxes', 'bearer', ({world, query}) =>
		batchIds(query).map((id) => {
			const sandbox = world.findSandbox(id);
			return sandbox ? sandboxJson(world, sandbox) : null;
		}),
	);

	// The spec id is a query parameter, not a body, on the real service.
	router.add('POST', '/api/v1/sandboxes', 'bearer', ({world, query}) => {
		const specId = query.get('sandbox_spec_id') || world.specs[0]!.id;
		if (!world.findSpec(specId)) throw notFound();
		return sandboxJson(world, startSandbox(world, specId));
	});

	router.add('POST', '/api/v1/sandboxes/:id/pause', 'bearer', ({world, params}) => {
		const sandbox = world.findSandbox(params.id!);
		if (!sandbox || !pauseSandbox(world, sandbox)) throw notFound();
		return {success: true};
	});

	router.add('POST', '/api/v1/sandboxes/:id/resume', 'bearer', ({world, params}) => {
		const sandbox = world.findSandbox(params.id!);
		if (!sandbox || !resumeSandbox(world, sandbox)) throw notFound();
		return {success: true};
	});

	// Older servers read the id from `?sandbox_id=` (a route bug); accept both.
	router.add('DELETE', '/api/v1/sandboxes/:id', 'bearer', ({world, params, query}) => {
		const sandbox = world.findSandbox(query.get('sandbox_id') || params.id!);
		if (!sandbox || sandbox.status === 'MISSING') throw notFound();
		deleteSandbox(world, sandbox);
		return {success: true};
	});

	router.add('GET', '/api/v1/sandbox-specs/search', 'bearer', ({world, query}) => {
		const limit = intQuery(query, 'limit', {fallback: 100, min: 1, max: 100});
		return offsetPage(world.specs, offsetPageId(query), limit, specJson);
	});

	router.add('GET', '/api/v1/sandbox-specs', 'bearer', ({world, query}) =>
		batchIds(query).map((id) => {
			const spec = world.findSpec(id);
			return spec ? specJson(spec) : null;
		}),
	);
}
