import assert from 'node:assert/strict';
import {test} from 'node:test';
import {isSecretParam, linkHasSecret, linkName, maskedLink} from '../source/format/link-text.js';

/** Links are shown with their credentials hidden, whatever form the credential takes. */

test('query credentials are hidden, other parameters kept', () => {
	assert.equal(maskedLink('http://h:1/vscode/?tkn=abc123&folder=%2Fworkspace%2Fproject'), 'http://h:1/vscode/?tkn=•••&folder=%2Fworkspace%2Fproject');
	for (const name of ['token', 'key', 'session_api_key', 'X-Session-API-Key', 'access_token', 'api-key', 'password', 'mySecret']) {
		const shown = maskedLink(`https://app.example/run?${name}=s3cr3t-value&page=2`);
		assert.ok(!shown.includes('s3cr3t-value'), `${name} is hidden: ${shown}`);
		assert.match(shown, /page=2/);
		assert.ok(isSecretParam(name));
	}
	assert.ok(!isSecretParam('folder') && !isSecretParam('page'));
});

test('user:password@, a fragment and a known key anywhere are hidden; a plain link is unchanged', () => {
	assert.equal(maskedLink('http://admin:hunter2@h:8080/app/'), 'http://•••@h:8080/app/');
	assert.equal(maskedLink('http://h/app/#access_token=xyz'), 'http://h/app/#•••');
	assert.equal(maskedLink('http://h/runtime/sess-KEY-1234/app/', ['sess-KEY-1234']), 'http://h/runtime/•••/app/');
	assert.equal(maskedLink('http://127.0.0.1:4100/runtime/50001/app-12000/'), 'http://127.0.0.1:4100/runtime/50001/app-12000/');
	assert.equal(linkHasSecret('http://h/x?tkn=1'), true);
	assert.equal(linkHasSecret('http://h/x?page=1'), false);
});

test('hostile or broken links: escape sequences never pass, an unparsable one is not shown', () => {
	const shown = maskedLink('http://h/\u001B]0;owned\u0007/?q=\u001B[2J');
	assert.ok(!shown.includes('\u001B'), shown);
	assert.equal(maskedLink('not a url ?tkn=abc'), '(a link that is not a valid URL)');
	assert.equal(linkName('VSCODE', 8001), 'VS Code');
	assert.equal(linkName('WORKER_1', 12000), 'app :12000');
	assert.ok(!linkName('\u001B[31mODD', null).includes('\u001B'));
});

test('OSC 8 and OSC 52: a hostile link cannot end the sequence and write its own', async () => {
	const {osc8Link, osc52Copy} = await import('../source/view/clipboard.js');
	assert.equal(osc8Link('http://h/a?tkn=1', 'text'), '\u001B]8;;http://h/a?tkn=1\u0007text\u001B]8;;\u0007');
	// The parser percent-encodes what it can; what stays unprintable is refused.
	const encoded = osc8Link('http://h/\u0007\u001B]0;owned\u0007', 'x');
	assert.ok(encoded === null || !/[\u0000-\u001F]/.test(encoded.slice(4, encoded.indexOf('\u0007'))), String(encoded));
	assert.equal(osc8Link('not a url', 'x'), null);
	assert.match(osc52Copy('\u001B]0;x\u0007'), /^\u001B\]52;c;[A-Za-z0-9+/=]+\u0007$/);
});

test('a known key in a link is hidden in its URL-encoded form too, and a key containing another goes whole', () => {
	const key = 'sk oh/42';
	assert.equal(maskedLink(`http://host/runtime/1/files/${encodeURIComponent(key)}/x`), `http://host/runtime/1/files/${encodeURIComponent(key)}/x`);
	assert.equal(maskedLink(`http://host/runtime/1/files/${encodeURIComponent(key)}/x`, [key]), 'http://host/runtime/1/files/•••/x');
	assert.equal(maskedLink('http://host/p/abcd-efgh', ['abcd', 'abcd-efgh']), 'http://host/p/•••');
});
