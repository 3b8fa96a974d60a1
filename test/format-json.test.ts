import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {prettyJson, prettyJsonString} from '../source/format/truncate-json.js';
import {prettyJson as aliasPrettyJson} from '../source/format/json.js';
import {Secret} from '../source/wire/secret.js';

const controls = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

test('pretty-prints tool arguments with short primitive containers on one line', () => {
	const raw = JSON.stringify({command: 'str_replace', path: '/workspace/app.py', view_range: [1, 20], options: {dry_run: false, note: null}});
	assert.equal(
		prettyJsonString(raw),
		['{', '  "command": "str_replace",', '  "path": "/workspace/app.py",', '  "view_range": [1, 20],', '  "options": {"dry_run": false, "note": null}', '}'].join('\n'),
	);
	assert.equal(prettyJson([]), '[]');
	assert.equal(prettyJson({}), '{}');
	assert.equal(prettyJson('text'), '"text"');
	// Only containers of primitives go on one line.
	assert.equal(prettyJson([[1], {a: [2]}]), '[\n  [1],\n  {\n    "a": [2]\n  }\n]');
	assert.equal(aliasPrettyJson, prettyJson);
});

test('checklist 15: arguments nested 100,000 deep print without RangeError, cut at maxDepth', (t) => {
	const depth = 100_000;
	const arrays = '['.repeat(depth) + ']'.repeat(depth);
	const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
	for (const raw of [arrays, objects]) {
		const started = performance.now();
		const out = prettyJsonString(raw, {maxDepth: 10});
		t.diagnostic(`depth ${depth}: ${(performance.now() - started).toFixed(0)} ms, ${out.length} chars`);
		assert.ok(out.includes('[…]') || out.includes('{…}'));
		assert.ok(out.length < 1000);
	}

	// The same from a JS value (built without recursion), and with an absurd maxDepth, which is capped.
	let value: unknown = 1;
	for (let index = 0; index < depth; index++) value = [value];
	assert.doesNotThrow(() => prettyJson(value, {maxDepth: 1_000_000}));
	assert.match(prettyJson(value, {maxDepth: 2}), /^\[\n {2}\[\n {4}\[…\]\n {2}\]\n\]$/);
});

test('encrypted_content is hidden at any depth, in any layout', () => {
	const secret = 'gAAAAABn-very-secret-reasoning';
	const raw = JSON.stringify({
		encrypted_content: secret,
		nested: {deeper: [{encrypted_content: secret, keep: 1}]},
		inline: {encrypted_content: secret},
		list: [{reasoning: {encrypted_content: {even: 'objects', secret}}}],
	});
	const out = prettyJsonString(raw);
	assert.ok(!out.includes('gAAAA'), out);
	assert.equal(out.match(/"encrypted_content": \[hidden\]/g)?.length, 4);
	assert.ok(out.includes('"keep": 1'));
	assert.ok(!prettyJson({a: {encrypted_content: secret}}).includes(secret));
});

test('20-digit integers and overflowing numbers print exactly as sent', () => {
	const raw = '{"id": 12345678901234567890, "neg": -98765432109876543210, "big": 1e400, "ok": 9007199254740991, "f": 1.5, "in_string": "12345678901234567890", "list": [18446744073709551615]}';
	const out = prettyJsonString(raw);
	assert.ok(out.includes('"id": 12345678901234567890'), out);
	assert.ok(out.includes('"neg": -98765432109876543210'));
	assert.ok(out.includes('"big": 1e400'));
	assert.ok(out.includes('"ok": 9007199254740991'));
	assert.ok(out.includes('"f": 1.5'));
	assert.ok(out.includes('"in_string": "12345678901234567890"'));
	assert.ok(out.includes('[18446744073709551615]'));
	assert.equal(prettyJson(12_345_678_901_234_567_890n), '12345678901234567890');
});

test('invalid JSON is shown as sanitized text', () => {
	assert.equal(prettyJsonString('{"command": "ls'), '{"command": "ls');
	assert.equal(prettyJsonString('not json \u001B]52;c;eA==\u0007'), 'not json ␛]52;c;eA==␇');
	assert.equal(prettyJsonString(''), '');
	const long = prettyJsonString('x'.repeat(5000), {maxChars: 100});
	assert.ok(long.length < 200 && long.includes('4,900 more characters'));
});

test('strings with hostile content stay escaped and visible', () => {
	const out = prettyJsonString(JSON.stringify({cmd: 'echo \u001B]0;title\u0007', path: 'a\u202Eb', c1: '\u009B2J', tab: 'a\tb'}));
	assert.ok(out.includes(String.raw`"echo \u001b]0;title\u0007"`));
	assert.ok(out.includes('"a⟨U+202E⟩b"'));
	assert.ok(out.includes('"⟨U+009B⟩2J"'));
	assert.ok(out.includes(String.raw`"a\tb"`));
	assert.equal(controls.exec(out), null);
});

test('limits: items, string length, total characters', () => {
	const items = prettyJson(Array.from({length: 500}, (_, index) => ({index})), {maxItems: 3});
	assert.match(items, /\{"index": 2\},\n {2}… 497 more\n\]$/);
	const long = prettyJson({text: 'y'.repeat(50)}, {maxStringLength: 10});
	assert.ok(long.includes('"yyyyyyyyyy"… (+40 chars)'));
	assert.ok(prettyJson({['k'.repeat(50)]: 1}, {maxStringLength: 10}).includes('"kkkkkkkkkk"… (+40 chars): 1'));
	// A cut never leaves half a surrogate pair.
	assert.ok(prettyJson('😀😀😀', {maxStringLength: 3}).startsWith('"😀"…'));
	const total = prettyJson(Array.from({length: 10_000}, (_, index) => `item ${index}`), {maxChars: 500, maxItems: 100_000});
	assert.ok(total.length < 600);
	assert.ok(total.endsWith('… (output cut at 500 characters)'));
});

test('cycles, toJSON, secrets and odd JS values', () => {
	const cyclic: Record<string, unknown> = {name: 'loop'};
	cyclic.self = cyclic;
	cyclic.list = [cyclic];
	const out = prettyJson(cyclic);
	assert.ok(out.includes('"self": [circular]'));
	// A shared (non-cyclic) object is printed each time it appears.
	const shared = {x: 1};
	assert.equal(prettyJson([shared, shared]), '[\n  {"x": 1},\n  {"x": 1}\n]');
	assert.equal(prettyJson({key: new Secret('hunter2')}), '{"key": "[redacted]"}');
	assert.equal(prettyJson({when: new Date(0)}), '{"when": "1970-01-01T00:00:00.000Z"}');
	assert.equal(prettyJson({f() {}, u: undefined, n: Number.NaN}), '{"n": NaN}');
	const throwing = {
		toJSON() {
			throw new Error('no');
		},
	};
	assert.equal(prettyJson(throwing), '"[unprintable]"');
});

test('property: never throws, output is clean, bounded and hides encrypted_content', () => {
	const withSecret = fc.jsonValue({maxDepth: 4, stringUnit: 'binary'}).map((value) => ({value, encrypted_content: 'SECRET-MARKER'}));
	fc.assert(
		fc.property(fc.oneof(withSecret, fc.jsonValue({maxDepth: 4, stringUnit: 'binary'})), fc.integer({min: 0, max: 6}), (value, maxDepth) => {
			const raw = JSON.stringify(value);
			const out = prettyJsonString(raw, {maxDepth, maxChars: 2000});
			assert.equal(controls.exec(out), null);
			assert.ok(!out.includes('SECRET-MARKER'));
			assert.ok(out.length <= 2100);
		}),
	);
	fc.assert(
		fc.property(fc.string({unit: 'binary'}), (raw) => {
			assert.equal(controls.exec(prettyJsonString(raw)), null);
		}),
	);
});
