import {test} from 'node:test';
import assert from 'node:assert/strict';
import {
	buildLaunchLink,
	decodeBase64Text,
	findLaunchLink,
	maxLaunchPlugins,
	parseLaunchLink,
} from '../source/wire/launch-link.js';

const plugins = [{source: 'github:jpshackelford/oh-examples', ref: 'main', repo_path: 'finish-callback/oh-finish-callback'}];
const json = JSON.stringify(plugins);
const standard = Buffer.from(json).toString('base64');

function expectOk(text: string) {
	const result = parseLaunchLink(text);
	if (!result.ok) assert.fail(`expected a link, got: ${result.error}`);
	return result.link;
}

function expectError(text: string, pattern: RegExp) {
	const result = parseLaunchLink(text);
	assert.equal(result.ok, false, `expected an error for ${text}`);
	if (!result.ok) assert.match(result.error, pattern);
}

test('a real badge link (no padding) decodes to its plugin and message', () => {
	// Copied from a plugin README: Python's b64encode output with the padding stripped.
	const link = expectOk(
		'https://app.all-hands.dev/launch?plugins=W3sic291cmNlIjogImdpdGh1YjpqcHNoYWNrZWxmb3JkL29oLWV4YW1wbGVzIiwgInJlZiI6ICJtYWluIiwgInJlcG9fcGF0aCI6ICJmaW5pc2gtY2FsbGJhY2svb2gtZmluaXNoLWNhbGxiYWNrIn1d&message=Say%20hello%20and%20then%20finish.',
	);
	assert.deepEqual(link.plugins, plugins);
	assert.equal(link.message, 'Say hello and then finish.');
	assert.equal(link.origin, 'https://app.all-hands.dev');
});

test('standard, URL-safe, padded, unpadded and percent-encoded padding all decode the same', () => {
	const withSymbols = [{source: 'https://example.com/o/r.git', ref: '>>?>', parameters: {note: 'ÿþ~~~'}}];
	const encoded = Buffer.from(JSON.stringify(withSymbols)).toString('base64');
	assert.match(encoded, /[+/]/, 'the fixture must exercise + and /');
	const variants = [
		encoded,
		encoded.replace(/=+$/, ''),
		encoded.replaceAll('+', '-').replaceAll('/', '_'),
		encoded.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
		encodeURIComponent(encoded),
	];
	for (const variant of variants) {
		const link = expectOk(`https://h.example/launch?plugins=${variant}`);
		assert.deepEqual(link.plugins, withSymbols, variant);
	}
	// A raw `+` in a query is read as a space by URLSearchParams: still decoded correctly.
	assert.match(encoded, /\+/);
	assert.deepEqual(expectOk(`/launch?plugins=${encoded}`).plugins, withSymbols);
});

test('the link is found inside surrounding text and markdown, with or without a host', () => {
	const url = buildLaunchLink('https://app.example.com/', plugins, 'fix the tests');
	assert.equal(findLaunchLink(`try this: [![Try](badge.svg)](${url}) thanks`), url);
	assert.equal(expectOk(`  ${url}\n`).message, 'fix the tests');
	const bare = expectOk(`/launch?plugins=${standard}`);
	assert.equal(bare.origin, null);
	assert.equal(bare.message, null);
	assert.equal(findLaunchLink('https://app.example.com/launch?message=hi'), null);
	assert.equal(findLaunchLink('just a message about launching'), null);
});

test('null or empty optional fields are treated as absent; a single object counts as a list', () => {
	const encoded = Buffer.from(JSON.stringify([{source: 'github:o/r', ref: null, repo_path: ''}])).toString('base64');
	assert.deepEqual(expectOk(`/launch?plugins=${encoded}`).plugins, [{source: 'github:o/r'}]);
	const single = Buffer.from(JSON.stringify({source: 'github:o/r', ref: 'v1'})).toString('base64');
	assert.deepEqual(expectOk(`/launch?plugins=${single}`).plugins, [{source: 'github:o/r', ref: 'v1'}]);
});

test('bad links give a clear error', () => {
	const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64');
	expectError('https://h/launch?plugins=', /empty/);
	expectError('https://h/launch?plugins=%%%%', /not base64/);
	expectError('https://h/launch?plugins=abcde', /cut short/);
	expectError(`https://h/launch?plugins=${b64('not json')}`, /not JSON/);
	expectError(`https://h/launch?plugins=${Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')}`, /UTF-8/);
	expectError(`https://h/launch?plugins=${b64('"a string"')}`, /JSON array/);
	expectError(`https://h/launch?plugins=${b64([])}`, /no plugins/);
	expectError(`https://h/launch?plugins=${b64([{ref: 'main'}])}`, /plugin 1: source/);
	expectError(`https://h/launch?plugins=${b64([{source: 'ok'}, {source: ''}])}`, /plugin 2: source: plugin source is empty/);
	expectError(`https://h/launch?plugins=${b64([{source: 'ok', parameters: 'x'}])}`, /plugin 1: parameters/);
	expectError(`https://h/launch?plugins=${b64(Array.from({length: maxLaunchPlugins + 1}, () => ({source: 's'})))}`, /at most/);
	expectError(`https://h/launch?plugins=${'A'.repeat(70_000)}`, /too long/);
	expectError('nothing here', /no launch link/);
});

test('decodeBase64Text never throws on junk', () => {
	for (const junk of ['', '=', '====', 'a', '\u0000', '😀😀', 'ab=cd']) {
		assert.doesNotThrow(() => decodeBase64Text(junk));
	}
	const roundTrip = decodeBase64Text(Buffer.from('héllo').toString('base64url'));
	assert.deepEqual(roundTrip, {ok: true, text: 'héllo'});
});

test('buildLaunchLink round-trips with parameters', () => {
	const specs = [{source: 'github:o/r', repo_path: 'p', parameters: {api_key: '', timeout: 30, debug: false}}];
	const link = expectOk(buildLaunchLink('https://x.test', specs, '/city-weather:now Tokyo'));
	assert.deepEqual(link.plugins, specs);
	assert.equal(link.message, '/city-weather:now Tokyo');
});
