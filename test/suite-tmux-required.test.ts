import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {test} from 'node:test';
import {tmuxSkipReason} from './helpers/tmux.js';

/**
 * A CI run without tmux must fail, not pass with every end-to-end test skipped: the tmux tests'
 * skip option throws on CI where tmux is missing, and `.ci/run` stops before installing anything.
 * "Missing" here is a PATH without tmux on it.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const noTmux = {PATH: '/nonexistent-agent-tui-bin'};

test('the tmux skip option: false where tmux runs, a reason off CI without it, an error on CI without it', () => {
	assert.equal(tmuxSkipReason(process.env), false, 'tmux runs on this machine (the suite needs it)');
	assert.match(String(tmuxSkipReason(noTmux)), /tmux is not installed/);
	assert.match(String(tmuxSkipReason({...noTmux, CI: 'false'})), /tmux is not installed/);
	assert.throws(() => tmuxSkipReason({...noTmux, CI: 'true'}), /tmux is not installed and CI is set/);
	assert.throws(() => tmuxSkipReason({...noTmux, CI: '1'}), /CI is set/);
});

test('.ci/run fails at once where tmux is missing and cannot be installed', (t) => {
	// A PATH with what the script's first lines need (dirname) and no tmux, no apt-get.
	const bin = mkdtempSync(join(tmpdir(), 'agent-tui-no-tmux-'));
	t.after(() => rmSync(bin, {recursive: true, force: true}));
	const where = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], {encoding: 'utf8'}).stdout.trim();
	symlinkSync(where('dirname'), join(bin, 'dirname'));
	const run = spawnSync(where('bash'), [join(root, '.ci/run')], {encoding: 'utf8', env: {PATH: bin}, timeout: 20_000});
	assert.equal(run.status, 1, `${run.error?.message ?? ''}${run.stderr}${run.stdout}`);
	assert.match(run.stderr, /tmux unavailable and could not be installed/);
	assert.doesNotMatch(run.stdout, /installing and checking on Node/, 'stopped before fetching Node or installing');
});
