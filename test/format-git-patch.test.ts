import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, test} from 'node:test';
import fc from 'fast-check';
import {computeFileDiff, hunkHeader, neighbourHunk} from '../source/format/file-diff.js';
import {blobHash, gitPatch, gitStat, quoteGitPath, type PatchFile} from '../source/format/git-patch.js';

/**
 * The patch and the diff rows against real git: the same path quoting, the same blob ids, and
 * for random texts (with and without final newlines, added, deleted, emptied) a patch that
 * `git apply` takes and that reproduces the modified texts byte for byte.
 */

const home = mkdtempSync(join(tmpdir(), 'agent-tui-patch-'));
after(() => rmSync(home, {recursive: true, force: true}));

function repo(name: string) {
	const dir = join(home, name);
	mkdirSync(dir, {recursive: true});
	const git = (...args: string[]) => execFileSync('git', ['-c', 'core.quotePath=true', '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {cwd: dir, encoding: 'utf8'});
	git('init', '-q');
	return {dir, git};
}

test('paths are quoted exactly as git quotes them; blob ids are git hash-object\'s', () => {
	const {dir, git} = repo('quoting');
	const names = ['plain.txt', 'my file.txt', 'naïve café.md', 'q"uote.txt', 'back\\slash.txt', 'tab\there.txt', 'dir/ünï côdé/x.md'];
	for (const name of names) {
		mkdirSync(dirname(join(dir, name)), {recursive: true});
		writeFileSync(join(dir, name), `${name}\n`);
	}
	git('add', '-A');
	const listed = git('diff', '--cached', '--name-only').trimEnd().split('\n').sort();
	assert.deepEqual(names.map(quoteGitPath).sort(), listed);
	assert.equal(quoteGitPath('my file.txt'), 'my file.txt', 'a space alone is not quoted');
	for (const name of names) assert.equal(blobHash(`${name}\n`), git('hash-object', join(dir, name)).trim().slice(0, 7));
});

test('hunk headers leave out a count of 1, like git', () => {
	assert.equal(hunkHeader({oldStart: 1, oldLines: 1, newStart: 1, newLines: 1}), '@@ -1 +1 @@');
	assert.equal(hunkHeader({oldStart: 1, oldLines: 0, newStart: 1, newLines: 3}), '@@ -0,0 +1,3 @@');
	assert.equal(hunkHeader({oldStart: 12, oldLines: 7, newStart: 12, newLines: 9}), '@@ -12,7 +12,9 @@');
});

test('diff rows: line numbers on both sides, a no-newline marker, escape sequences as text, hunk jumps', () => {
	const original = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve';
	const modified = 'one\nTWO \u001B]0;pwned\u0007\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n';
	const diff = computeFileDiff(original, modified);
	assert.equal(diff.added, 2);
	assert.equal(diff.removed, 2);
	assert.deepEqual(diff.hunkStarts, [0, diff.rows.findIndex((row, index) => index > 0 && row.kind === 'hunk')]);
	const added = diff.rows.find((row) => row.kind === 'added' && row.newLine === 2)!;
	assert.equal(added.text, 'TWO ␛]0;pwned␇');
	assert.ok(diff.rows.every((row) => !/[\u0000-\u001f]/.test(row.text)), 'no control character left');
	assert.deepEqual(diff.rows.filter((row) => row.kind === 'no-newline').length, 1);
	const context = diff.rows.find((row) => row.kind === 'context' && row.oldLine === 3)!;
	assert.equal(context.newLine, 3);
	assert.equal(neighbourHunk(diff, 0, 1), diff.hunkStarts[1]);
	assert.equal(neighbourHunk(diff, diff.hunkStarts[1]!, -1), 0);
	assert.equal(neighbourHunk(diff, diff.hunkStarts[1]!, 1), null);
	assert.equal(computeFileDiff('same\n', 'same\n').identical, true);
});

test('--stat totals read like git\'s', () => {
	const text = gitStat([
		{path: 'a.txt', added: 3, removed: 1},
		{path: 'naïve.md', added: 0, removed: 2},
	]);
	assert.equal(text, ' a.txt             | 4 +++-\n "na\\303\\257ve.md" | 2 --\n 2 files changed, 3 insertions(+), 3 deletions(-)\n');
});

const lineArb = fc.oneof(fc.constantFrom('alpha', 'beta', 'gamma', '', '  indented', 'tab\there', 'ünïcödé', 'crlf\r', '\\ backslash start', '+plus', '-minus', '@@ fake'), fc.string({maxLength: 6}).map((text) => text.replaceAll('\n', '')));
const textArb = fc.tuple(fc.array(lineArb, {maxLength: 14}), fc.boolean()).map(([lines, newline]) => (lines.length === 0 ? '' : lines.join('\n') + (newline ? '\n' : '')));

test('property: git apply on the originals gives the modified texts byte for byte', {timeout: 120_000}, () => {
	let run = 0;
	fc.assert(
		fc.property(fc.array(fc.tuple(fc.option(textArb, {nil: null}), fc.option(textArb, {nil: null})), {minLength: 1, maxLength: 4}), (pairs) => {
			const files: PatchFile[] = pairs.map(([original, modified], index) => ({status: 'UPDATED', path: index % 2 === 0 ? `dir ${index}/fïle ${index}.txt` : `f${index}.txt`, original, modified}));
			const {dir, git} = repo(`property-${run++}`);
			for (const file of files) {
				if (file.original === null) continue;
				mkdirSync(dirname(join(dir, file.path)), {recursive: true});
				writeFileSync(join(dir, file.path), file.original);
			}
			const patch = gitPatch(files);
			writeFileSync(join(dir, '..', `p${run}.patch`), patch);
			if (patch !== '') git('apply', join(dir, '..', `p${run}.patch`));
			for (const file of files) {
				const path = join(dir, file.path);
				if (file.modified === null) assert.ok(!existsSync(path), `${file.path} deleted`);
				else assert.equal(readFileSync(path, 'utf8'), file.modified, `${file.path}`);
			}
			rmSync(dir, {recursive: true, force: true});
		}),
		{numRuns: 40},
	);
});
