import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ProtocolError} from '../source/wire/errors.js';
import {JsonArrayScanner, parseJsonArrayStream} from '../source/wire/stream-start.js';
import {stringWork} from './helpers/string-work.js';

/** The incremental JSON-array parser behind stream-start, fed exactly the chunks a test chooses. */

async function* pieces(parts: Array<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
	for (const part of parts) yield part;
}

function bytesOf(text: string, size: number): Uint8Array[] {
	const bytes = Buffer.from(text, 'utf8');
	const out: Uint8Array[] = [];
	for (let index = 0; index < bytes.length; index += size) out.push(new Uint8Array(bytes.subarray(index, index + size)));
	return out;
}

async function parseAll(parts: Array<Uint8Array | string>, options?: {maxElementChars?: number}): Promise<unknown[]> {
	const out: unknown[] = [];
	for await (const element of parseJsonArrayStream(pieces(parts), options)) out.push(element);
	return out;
}

/** The error a parse ends with, and the elements it yielded first. */
async function parseFailure(parts: Array<Uint8Array | string>, options?: {maxElementChars?: number}): Promise<{error: unknown; seen: unknown[]}> {
	const seen: unknown[] = [];
	try {
		for await (const element of parseJsonArrayStream(pieces(parts), options)) seen.push(element);
	} catch (error) {
		return {error, seen};
	}
	assert.fail(`expected the parse to fail; it yielded ${JSON.stringify(seen)}`);
}

const tricky = [
	{id: 't1', status: 'WORKING', note: 'a "quoted" ]} [{ , word', path: 'C:\\dir\\', emoji: 'café 漢字 😀', nested: {list: [1, {deep: [[]]}], empty: {}}},
	{id: 't1', status: 'WAITING_FOR_SANDBOX', escapes: '\\"\\\\', unicode: '\u005c\u0022', text: 'line\nbreak\ttab'},
	{id: 't1', status: 'READY', app_conversation_id: 'abc', n: -1.5e3, ok: true, none: null},
];
const trickyBody = `[\n${tricky.map((element) => JSON.stringify(element)).join(',\n')}\n]`;

test('1-byte chunks: every element comes out whole, through escapes, brackets in strings and multi-byte characters', async () => {
	assert.deepEqual(await parseAll(bytesOf(trickyBody, 1)), tricky);
});

test('every split point of the body, in bytes and in text, gives the same elements', async () => {
	const bytes = Buffer.from(trickyBody, 'utf8');
	for (let at = 0; at <= bytes.length; at++) {
		const parts = [new Uint8Array(bytes.subarray(0, at)), new Uint8Array(bytes.subarray(at))];
		assert.deepEqual(await parseAll(parts), tricky, `byte split at ${at}`);
	}
	for (let at = 0; at <= trickyBody.length; at++) {
		assert.deepEqual(await parseAll([trickyBody.slice(0, at), trickyBody.slice(at)]), tricky, `text split at ${at}`);
	}
});

test('a 4-byte character split over four chunks is decoded, not replaced', async () => {
	const body = Buffer.from('[{"e":"😀"}]', 'utf8');
	const start = body.indexOf(0xf0);
	const parts = [body.subarray(0, start + 1), body.subarray(start + 1, start + 2), body.subarray(start + 2, start + 3), body.subarray(start + 3)];
	assert.deepEqual(await parseAll(parts.map((part) => new Uint8Array(part))), [{e: '😀'}]);
});

test('each element is yielded as soon as it closes, before the rest of the stream exists', async () => {
	let release!: () => void;
	const gate = new Promise<void>((resolve) => (release = resolve));
	let secondSent = false;
	async function* source() {
		yield '[\n{"id":"t","status":"WORKING"},\n{"id":"t","sta';
		await gate;
		secondSent = true;
		yield 'tus":"READY"}\n]';
	}
	const iterator = parseJsonArrayStream(source())[Symbol.asyncIterator]();
	const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the first element was held back')), 1000).unref());
	const first = await Promise.race([iterator.next(), timeout]);
	assert.deepEqual(first, {done: false, value: {id: 't', status: 'WORKING'}});
	assert.equal(secondSent, false);
	release();
	assert.deepEqual(await iterator.next(), {done: false, value: {id: 't', status: 'READY'}});
	assert.deepEqual(await iterator.next(), {done: true, value: undefined});
});

test('truncated streams are a ProtocolError that says how many updates arrived and what to do', async () => {
	const cases: Array<[string, number]> = [
		['', 0],
		['   ', 0],
		['[', 0],
		['[\n{"id":"t","status":"WORKING"', 0],
		['[\n{"id":"t","status":"WORKING"},\n', 1],
		['[\n{"id":"t","status":"WORKING"},\n{"id":"t","note":"unfinished \\"str', 1],
		['[{"a":1},{"b":2}', 2],
		['[1', 0],
	];
	for (const [body, count] of cases) {
		const {error, seen} = await parseFailure(bytesOf(body, 3));
		assert.ok(error instanceof ProtocolError, `${JSON.stringify(body)}: ${String(error)}`);
		assert.equal(seen.length, count, JSON.stringify(body));
		assert.match(error.message, new RegExp(`ended before it finished \\(after ${count} updates?\\)`));
		assert.match(error.message, /agent-tui conversations/);
	}
});

test('malformed streams fail with a message naming the problem, after yielding what was whole', async () => {
	const cases: Array<[string, RegExp, number]> = [
		['{"id":"t"}', /not a JSON array/, 0],
		['<!DOCTYPE html><html>', /not a JSON array \(it begins with "<!DOCTYPE/, 0],
		['[{"a":1} {"b":2}]', /expected a comma or the closing bracket/, 1],
		['[,{"a":1}]', /expected an element/, 0],
		['[{"a":1},]', /expected an element/, 1],
		['[{"a":1},{"a":}]', /update 2 is not valid JSON/, 1],
		['[{"a":1}] trailing', /data after its closing bracket/, 1],
		['[{"a":1}]]', /data after its closing bracket/, 1],
	];
	for (const [body, pattern, count] of cases) {
		const {error, seen} = await parseFailure([body]);
		assert.ok(error instanceof ProtocolError, body);
		assert.match(error.message, pattern, body);
		assert.equal(seen.length, count, body);
	}
});

test('scalars, strings and empty arrays are elements too; an empty array yields nothing', async () => {
	assert.deepEqual(await parseAll(['[1, "x,]\\"", true,null ,-2.5e3,[],{}]']), [1, 'x,]"', true, null, -2500, [], {}]);
	assert.deepEqual(await parseAll(['[', ']']), []);
	assert.deepEqual(await parseAll(['\uFEFF[\r\n\t]\n\n']), []);
});

test('an element larger than the cap stops the parse instead of filling memory', async () => {
	const big = `[{"x":"${'a'.repeat(500)}"}]`;
	const {error} = await parseFailure(bytesOf(big, 7), {maxElementChars: 100});
	assert.ok(error instanceof ProtocolError);
	assert.match(error.message, /larger than 100 characters/);
	assert.equal((await parseAll(bytesOf(big, 7), {maxElementChars: 1000})).length, 1);
});

test('linear time: a 4 MiB element in 1 KiB chunks and 20,000 small ones are scanned once', async (t) => {
	const large = JSON.stringify({id: 'big', text: 'x"\\y'.repeat(1024 * 1024)});
	const small = Array.from({length: 20_000}, (_, index) => JSON.stringify({id: `t${index}`, status: 'WORKING'}));
	const body = `[${large},${small.join(',')}]`;
	let count = 0;
	for await (const _ of parseJsonArrayStream(pieces(bytesOf(body, 1024)))) count++;
	assert.equal(count, 20_001);
	// The scanner's work in characters read, pushed the same 1 KiB at a time: a count, where a
	// time limit fails on a loaded machine (how fast is the bench's). A scanner that re-read the
	// element from its start per chunk would read ~8 G characters here.
	const scanner = new JsonArrayScanner();
	const out: unknown[] = [];
	const chunks = Array.from({length: Math.ceil(body.length / 1024)}, (_, index) => body.slice(index * 1024, (index + 1) * 1024));
	const {characters} = stringWork(() => {
		for (const chunk of chunks) scanner.push(chunk, out);
	});
	t.diagnostic(`${characters} characters read for a ${body.length}-character body`);
	assert.equal(out.length, 20_001);
	// Each character looked at once, and an element's text copied once as it is kept.
	assert.ok(characters <= 3 * body.length, `read ${characters} characters of ${body.length}`);
});

test('errors of the source pass through unchanged (the caller decides what a broken connection means)', async () => {
	const broken = new Error('socket hang up');
	async function* source() {
		yield '[{"a":1},';
		throw broken;
	}
	const seen: unknown[] = [];
	await assert.rejects(async () => {
		for await (const element of parseJsonArrayStream(source())) seen.push(element);
	}, (error: unknown) => error === broken);
	assert.deepEqual(seen, [{a: 1}]);
});

test('the scanner can be driven synchronously and reports its progress', () => {
	const scanner = new JsonArrayScanner();
	const out: unknown[] = [];
	scanner.push('[{"a":', out);
	assert.deepEqual(out, []);
	scanner.push('1},{"b"', out);
	assert.deepEqual(out, [{a: 1}]);
	assert.equal(scanner.count, 1);
	assert.equal(scanner.finished, false);
	scanner.push(':2}]', out);
	assert.equal(scanner.finished, true);
	scanner.end();
	assert.deepEqual(out, [{a: 1}, {b: 2}]);
});
