import assert from 'node:assert/strict';
import {test} from 'node:test';
import {OutcomeUnknownError, TimeoutError} from '../source/wire/errors.js';
import {HttpClient} from '../source/wire/http.js';
import {loopbackServer} from './helpers/loopback.js';
import {failure} from './helpers/outcomes.js';

/**
 * Issue 43.3: "did not answer in time" was said also when the headers had come and the body
 * stalled. Each late answer now says which part was late.
 */

test('no headers in time: "did not answer in time (no response headers came)"', async (t) => {
	const baseUrl = await loopbackServer(t, () => {
		// Never answers.
	});
	const http = new HttpClient({baseUrl, headers: () => ({}), maxRetries: 0});
	const error = await failure(http.json({path: '/api/v1/sandboxes/search', headersTimeoutMs: 100}));
	assert.ok(error instanceof TimeoutError, String(error));
	assert.match(error.message, /did not answer in time \(no response headers came\)/);
});

test('headers, then a body that stalls: the body is named as late, for a GET and a POST', async (t) => {
	const baseUrl = await loopbackServer(t, (_request, response) => {
		response.writeHead(200, {'content-type': 'application/json'});
		response.write('{"items": [');
	});
	const http = new HttpClient({baseUrl, headers: () => ({}), maxRetries: 0});
	const get = await failure(http.json({path: '/api/v1/sandboxes/search', bodyTimeoutMs: 100}));
	assert.ok(get instanceof TimeoutError, String(get));
	assert.match(get.message, /sent its headers \(HTTP 200\), but the body stalled/);
	assert.doesNotMatch(get.message, /did not answer in time/);
	const post = await failure(http.json({method: 'POST', path: '/api/v1/app-conversations', body: {}, bodyTimeoutMs: 100}));
	assert.ok(post instanceof OutcomeUnknownError, String(post));
	assert.match(post.message, /sent its headers \(HTTP 200\), but the body stalled.*; the request may have gone through/);
	// The whole-body deadline (a trickle) names the headers too.
	const slow = await failure(http.json({path: '/api/v1/sandboxes/search', bodyDeadlineMs: 200}));
	assert.match(slow.message, /sent its headers \(HTTP 200\), but the answer came too slowly/);
});
