import type {IncomingMessage, ServerResponse} from 'node:http';

/** Small HTTP helpers shaped after FastAPI's answers, which is what clients of the real service see. */

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers: Record<string, string> = {},
	) {
		super(`HTTP ${status}`);
	}
}

/** A handler's non-200 answer. */
export class Reply {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers: Record<string, string> = {},
	) {}
}

export type ValidationIssue = {type: string; loc: Array<string | number>; msg: string; input: unknown; ctx?: Record<string, unknown>};

export function validationError(issues: ValidationIssue[]): HttpError {
	return new HttpError(422, {detail: issues});
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (response.headersSent || response.writableEnded) return;
	const text = JSON.stringify(body);
	response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers});
	response.end(text);
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
	if (response.headersSent || response.writableEnded) return;
	response.writeHead(status, {'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html)});
	response.end(html);
}

const bodyLimit = 2 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = chunk as Buffer;
		size += buffer.length;
		if (size > bodyLimit) throw new HttpError(413, {detail: 'Request body too large'});
		chunks.push(buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body; an empty body is `undefined`, invalid JSON is FastAPI's 422 `json_invalid`. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
	const text = await readBody(request);
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw validationError([{type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: {error: (error as Error).message}}]);
	}
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function requireObjectBody(body: unknown): Record<string, unknown> {
	if (isRecord(body)) return body;
	throw validationError([
		body === undefined
			? {type: 'missing', loc: ['body'], msg: 'Field required', input: null}
			: {type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body},
	]);
}

export type IntBounds = {fallback: number; min?: number; max?: number; exclusiveMin?: number};

/** An integer query parameter with FastAPI's 422 wording when it is not a number or out of range. */
export function intQuery(query: URLSearchParams, name: string, bounds: IntBounds): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return bounds.fallback;
	const loc = ['query', name];
	if (!/^-?\d+$/.test(raw.trim())) {
		throw validationError([{type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input: raw}]);
	}
	const value = Number(raw);
	if (bounds.max !== undefined && value > bounds.max) {
		throw validationError([{type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${bounds.max}`, input: raw, ctx: {le: bounds.max}}]);
	}
	if (bounds.min !== undefined && value < bounds.min) {
		throw validationError([{type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${bounds.min}`, input: raw, ctx: {ge: bounds.min}}]);
	}
	if (bounds.exclusiveMin !== undefined && value <= bounds.exclusiveMin) {
		throw validationError([{type: 'greater_than', loc, msg: `Input should be greater than ${bounds.exclusiveMin}`, input: raw, ctx: {gt: bounds.exclusiveMin}}]);
	}
	return value;
}

/** App-server page ids are stringified offsets; anything else starts over (docs/service-behaviour.md §1.1). */
export function offsetPageId(query: URLSearchParams): number {
	const raw = query.get('page_id');
	return raw !== null && /^\d+$/.test(raw) ? Number(raw) : 0;
}

/** One page of an in-memory list, as `{items, next_page_id}`. */
export function offsetPage<T>(rows: readonly T[], offset: number, limit: number, toJson: (row: T) => unknown): {items: unknown[]; next_page_id: string | null} {
	const items = rows.slice(offset, offset + limit).map(toJson);
	return {items, next_page_id: offset + limit < rows.length ? String(offset + limit) : null};
}

export function enumQuery<T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T): T {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if ((values as readonly string[]).includes(raw)) return raw as T;
	throw validationError([
		{type: 'enum', loc: ['query', name], msg: `Input should be ${values.map((value) => `'${value}'`).join(', ')}`, input: raw, ctx: {expected: values.join(', ')}},
	]);
}

export const notFound = (detail = 'Not Found') => new HttpError(404, {detail});
