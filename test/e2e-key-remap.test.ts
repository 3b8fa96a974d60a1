import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {runCli} from './helpers/built-cli.js';
import {dashboardLauncher, screenLines, tmuxSkip} from './helpers/e2e-dashboard.js';

/**
 * Your own keys, from the config file's `keys`, in a real terminal against the built CLI: the
 * remapped key does the action, the old one no longer does, and the help (`?` becomes H here), the
 * footer and `agent-tui keys` show the new key. A mistake is an error at start naming its line.
 */

const dirs: string[] = [];
after(() => {
	for (const dir of dirs) rmSync(dir, {recursive: true, force: true});
});

function configHome(text: string): string {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-keys-'));
	dirs.push(home);
	mkdirSync(join(home, 'agent-tui'));
	writeFileSync(join(home, 'agent-tui', 'config.json'), text, {mode: 0o600});
	return home;
}

const launch = dashboardLauncher({seed: 7, tickMs: 0, conversations: 12});

describe('remapped keys in tmux', {skip: tmuxSkip}, () => {
	test('100x30: help on H and the Changes view on b; ? and d do nothing; the help and footer show the new keys', {timeout: 60_000}, async () => {
		const home = configHome('{\n  "keys": {\n    "help": "H",\n    "changes": "b"\n  }\n}\n');
		const {tmux} = await launch(100, 30, {env: {XDG_CONFIG_HOME: home}});
		const list = await tmux.waitFor((text) => /Conversations \(12\)/.test(text), 'the list', 20_000);
		const footer = screenLines(list).filter((line) => /\bhelp\b/.test(line)).join('\n');
		assert.match(footer, /H help/, 'the footer shows the new key');
		assert.doesNotMatch(footer, /\? help/);

		tmux.send('?');
		tmux.send('H');
		const help = await tmux.waitFor((text) => /Show this help/.test(text), 'the help on H');
		assert.match(help, /^\s*H\s+Show this help/m, 'the help lists H for itself');
		tmux.send('Escape');
		await tmux.waitFor((text) => !/Show this help/.test(text) && /Conversations \(12\)/.test(text), 'the help closed');
		// d no longer opens the Changes view: H, read after it, opens the help over the list (in the
		// Changes view H does nothing). Then b opens it.
		tmux.send('d');
		tmux.send('H');
		const afterD = await tmux.waitFor((text) => /Show this help/.test(text), 'the help after d');
		assert.ok(!afterD.includes('Changes ·'), 'd opened nothing');
		tmux.send('Escape');
		await tmux.waitFor((text) => !/Show this help/.test(text), 'the help closed again');
		tmux.send('b');
		const changes = await tmux.waitFor((text) => text.includes('Changes ·'), 'the Changes view on b', 20_000);
		assert.match(changes, /esc files|esc close|q close/);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('Changes ·') && /Conversations \(12\)/.test(text), 'the Changes view closed');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'q still quits');
	});

	test('a conflict or an unknown action stops the start with the file and the line', {timeout: 60_000}, async () => {
		const conflict = configHome('{\n  "profiles": {},\n  "keys": {\n    "pause": "P"\n  }\n}\n');
		const run = await runCli(['keys'], {home: conflict, env: {XDG_CONFIG_HOME: conflict}});
		assert.equal(run.code, 2, run.stderr);
		assert.match(run.stderr, /config\.json line 4: "pause": P is already bulkPause in Conversations/);
		const unknown = configHome('{\n  "keys": {"pauze": "v"}\n}\n');
		const {tmux} = await launch(100, 30, {env: {XDG_CONFIG_HOME: unknown}});
		const refused = await tmux.waitFor((text) => text.includes('EXIT='), 'the dashboard refused to start', 20_000);
		assert.match(refused, /EXIT=2/);
		assert.match(refused.replaceAll('\n', ''), /line 2: "pauze": unknown action "pauze"/);
		// A good mapping: agent-tui keys prints it.
		const good = configHome('{\n  "keys": {"pause": "b"}\n}\n');
		const listed = await runCli(['keys'], {home: good, env: {XDG_CONFIG_HOME: good}});
		assert.equal(listed.code, 0, listed.stderr);
		assert.match(listed.stdout, /^\| `b` \| Pause the whole sandbox.* \| pause \|$/m);
		assert.doesNotMatch(listed.stdout, /^\| `p` \| Pause the whole sandbox/m);
	});
});
