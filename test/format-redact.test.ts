import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {redactSecrets} from '../source/format/redact.js';

test('credential shapes are redacted', () => {
	const cases: Array<[string, string]> = [
		['Authorization: Bearer eyJhbGciOi.payload.sig-_~+/=', 'Authorization: Bearer [redacted]'],
		['bearer abc123 rejected', 'bearer [redacted] rejected'],
		['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [redacted]'],
		['X-Session-API-Key: sk-oh-123', 'X-Session-API-Key: [redacted]'],
		['x-session-api-key=abc', 'x-session-api-key=[redacted]'],
		['GET /sockets/events/1?resend_mode=all&session_api_key=abc123&x=1', 'GET /sockets/events/1?resend_mode=all&session_api_key=[redacted]&x=1'],
		['{"session_api_key":"abc","id":"c1"}', '{"session_api_key":"[redacted]","id":"c1"}'],
		['{"session_api_key": "a\\"b\\\\c", "x": 1}', '{"session_api_key": "[redacted]", "x": 1}'],
		["{'X-Session-API-Key': 'abc', 'Accept': 'json'}", "{'X-Session-API-Key': '[redacted]', 'Accept': 'json'}"],
		['{"encrypted_content":"gAAAAB-long","type":"reasoning"}', '{"encrypted_content":"[redacted]","type":"reasoning"}'],
		['"encrypted_content": "gAAAAB-truncated-bo', '"encrypted_content": "[redacted]'],
		['OPENHANDS_API_KEY=sk-1234 node', 'OPENHANDS_API_KEY=[redacted] node'],
		['connect https://user:hunter2@example.com/api', 'connect https://user:[redacted]@example.com/api'],
	];
	for (const [input, expected] of cases) assert.equal(redactSecrets(input), expected, input);
});

test('known secret values are replaced wherever they appear, also URL-encoded', () => {
	const secret = 'sk/oh+key=42';
	const text = `failed with ${secret} at wss://host/x?k=${encodeURIComponent(secret)} (${secret})`;
	const out = redactSecrets(text, [secret, '']);
	assert.ok(!out.includes(secret) && !out.includes(encodeURIComponent(secret)));
	assert.equal(out, 'failed with [redacted] at wss://host/x?k=[redacted] ([redacted])');
	// Longest first: a secret containing another is removed whole.
	assert.equal(redactSecrets('token abcdefgh-xyz', ['abcdefgh', 'abcdefgh-xyz']), 'token [redacted]');
});

test('redaction never rewrites ordinary words: only whole tokens, never a key shorter than 8', () => {
	// A key `x` turned "expected" into "e[redacted]pected".
	assert.equal(redactSecrets('Invalid input: expected string', ['x']), 'Invalid input: expected string');
	assert.equal(redactSecrets('key k-12345 failed', ['k-12345']), 'key k-12345 failed', 'shorter than 8: not looked for');
	// A real key inside a longer word is not that key; standing alone, in a query or quotes, it is.
	const key = 'secret42';
	assert.equal(redactSecrets('topsecret42s and secret42x', [key]), 'topsecret42s and secret42x');
	assert.equal(redactSecrets(`key=${key}&a=1 "${key}" (${key}) ${key}.`, [key]), 'key=[redacted]&a=1 "[redacted]" ([redacted]) [redacted].');
	// Credential shapes are still redacted whatever their length.
	assert.equal(redactSecrets('Bearer x', ['x']), 'Bearer [redacted]');
});

test('ordinary text is left alone and redaction is idempotent', () => {
	const plain = 'Connection refused (ECONNREFUSED 127.0.0.1:3000) after 3 attempts; status 503';
	assert.equal(redactSecrets(plain), plain);
	// Secrets share no character with the mark, so a leftover could only be a miss.
	const secret = fc.stringMatching(/^[0-9A-Z]{8,12}$/);
	fc.assert(
		fc.property(fc.string(), fc.array(secret, {maxLength: 3}), fc.array(fc.nat(), {maxLength: 3}), (text, secrets, positions) => {
			let input = text;
			for (const [index, position] of positions.entries()) {
				const value = secrets[index % Math.max(1, secrets.length)] ?? '';
				const at = position % (input.length + 1);
				// As a token of its own: inside a longer word it is not the secret.
				input = `${input.slice(0, at)} ${value} ${input.slice(at)}`;
			}

			const once = redactSecrets(input, secrets);
			for (const value of secrets) assert.ok(!once.includes(value), `${value} left in ${once}`);
			assert.equal(redactSecrets(once, secrets), once);
		}),
	);
});

test('a large encrypted_content value is redacted in linear time', (t) => {
	const body = `{"encrypted_content":"${'A'.repeat(5_000_000)}","summary":"ok"}`;
	const started = performance.now();
	const out = redactSecrets(body);
	t.diagnostic(`5 MB body: ${(performance.now() - started).toFixed(0)} ms`);
	assert.equal(out, '{"encrypted_content":"[redacted]","summary":"ok"}');
});
