import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {after, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {computeFileDiff, neighbourHunk} from '../source/format/file-diff.js';
import {hostileFilePath, largeFilePath, workspaceFor} from '../source/simulator/git-workspace.js';
import {startSimulator, type Simulator} from '../source/simulator/server.js';
import {shellQuote, startTmux, tmuxSkip, type TmuxSession} from './helpers/tmux.js';
import {cliCommand} from './helpers/built-cli.js';
import {specFolderMismatch} from './helpers/folder-mismatch.js';

/**
 * Issue 14's "done when" for the Changes view, in a real terminal: open the selected
 * conversation's Changes (`d`), page through the 5,000-line file's diff by page, by hunk and to
 * the end, then open the file that holds `ESC ] 0 ; pwned BEL`: it is on screen as text and the
 * pane's title is still the shell's (title changes are allowed in this tmux: a control run shows
 * one getting through). At 80x24 over the agent server's query routes, at 160x48 over the older
 * path routes only (the client's fallback). Then, in the 2026 fleet, a conversation whose spec
 * names `/home/openhands/workspace` while its agent works in `/workspace/project/<repo>`, with
 * folders that do not exist answering the hosted service's git error: its files, no error.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = tmuxSkip;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

const tmuxQuery = (session: TmuxSession, ...args: string[]) => execFileSync('tmux', ['-L', session.socket, ...args], {encoding: 'utf8'}).trim();

for (const [columns, rows, routes] of [
	[80, 24, 'proxy'],
	[160, 48, 'path'],
] as const) {
	test(`Changes at ${columns}x${rows} (${routes} routes): page a 5,000-line diff; a file holding ESC ] 0 ; leaves the title alone`, {skip, timeout: 120_000}, async () => {
		const sim: Simulator = await startSimulator({port: 0, seed: 1, tickMs: 0});
		cleanups.push(() => sim.close());
		// An app server before the git proxy, and an agent server with the older path form only: both fallbacks.
		if (routes === 'path') {
			sim.faults.appGitRoutes(false);
			sim.faults.gitQueryRoutes(false);
		}
		const control = `printf '\\033]2;SHELL-TITLE\\033\\\\'; printf 'CONTROL-DONE\\n'; sleep 1`;
		const app = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`, cliCommand(), `--base-url ${shellQuote(sim.baseUrl)}`].join(' ');
		const tmux = startTmux({columns, rows, command: `sh -c ${shellQuote(`sleep 0.3; ${control}; ${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
		cleanups.push(() => tmux.kill());
		for (const option of [['allow-rename', 'on'], ['set-titles', 'on']]) tmuxQuery(tmux, 'set-option', '-g', ...option);
		await tmux.waitFor((screen) => screen.includes('CONTROL-DONE'), 'the control sequence');
		assert.equal(tmuxQuery(tmux, 'display-message', '-p', '-t', 'app', '#{pane_title}'), 'SHELL-TITLE', 'a title change is visible in this tmux');

		await tmux.waitFor((screen) => screen.includes('Conversations (24)') && screen.includes('› '), 'the list', 40_000);
		tmux.send('d');
		let screen = await tmux.waitFor((text) => text.includes('Changes ·') && text.includes(hostileFilePath), 'the changed files', 20_000);
		const repoName = /Changes · \/workspace\/project\/(\S+)/.exec(screen)?.[1];
		const repository = sim.world.conversationList().find((row) => row.repository?.endsWith(`/${repoName}`))?.repository ?? null;
		const files = workspaceFor(repository)!.files;
		const large = files.findIndex((file) => file.path === largeFilePath);
		const diff = computeFileDiff(files[large]!.original, files[large]!.modified);
		assert.match(screen, /› M README\.md +\?/);

		for (let index = 1; index <= large; index++) {
			tmux.send('j');
			await tmux.waitFor((text) => text.includes(`› ${files[index]!.status === 'ADDED' ? 'A' : files[index]!.status === 'DELETED' ? 'D' : 'M'} ${files[index]!.path}`), `file ${index} selected`);
		}
		tmux.send('Enter');
		screen = await tmux.waitFor((text) => text.includes(`M ${largeFilePath} +${diff.added} -${diff.removed}`) && text.includes('hunk 1/12 · rows 1-'), 'the large diff');
		// Page by page: each page shows the rows after the last one shown.
		let shown = /rows 1-(\d+) of/.exec(screen)?.[1];
		for (let page = 0; page < 4; page++) {
			tmux.send('PageDown');
			screen = await tmux.waitFor((text) => new RegExp(`rows ${Number(shown) + 1}-\\d+ of ${diff.rows.length}`).test(text), `page ${page + 2}`);
			shown = /rows \d+-(\d+) of/.exec(screen)?.[1];
		}
		const top = Number(/rows (\d+)-/.exec(screen)?.[1]) - 1;
		const nextHunk = neighbourHunk(diff, top, 1)!;
		tmux.send(']');
		screen = await tmux.waitFor((text) => text.includes(`rows ${nextHunk + 1}-`), 'the next hunk');
		assert.match(screen.split('\n').find((row) => row.includes('@@')) ?? '', /^\s+@@ -\d+/, 'the hunk header on top');
		tmux.send('G');
		screen = await tmux.waitFor((text) => text.includes(`-${diff.rows.length} of ${diff.rows.length}`), 'the end of the diff');
		assert.match(screen, /@@ -4598,8 \+4900,6 @@/);
		tmux.send('g');
		await tmux.waitFor((text) => text.includes('hunk 1/12 · rows 1-'), 'the top again');

		tmux.send('}');
		screen = await tmux.waitFor((text) => text.includes(`A ${hostileFilePath}`) && text.includes('pwned'), 'the file with escape sequences');
		assert.match(screen, /␛\]0;pwned␇window title changed/);
		assert.equal(tmuxQuery(tmux, 'display-message', '-p', '-t', 'app', '#{pane_title}'), 'SHELL-TITLE', 'the file did not retitle the window');

		tmux.send('Escape');
		screen = await tmux.waitFor((text) => text.includes('status, path, lines added'), 'the list again');
		assert.match(screen, /A logs\/agent-run\.log +\+7 -0/);
		tmux.send('Escape');
		await tmux.waitFor((text) => !text.includes('Changes ·') && text.includes('Conversations (24)'), 'the dashboard');
		tmux.send('q');
		await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit', 20_000);
		assert.equal(tmuxQuery(tmux, 'display-message', '-p', '-t', 'app', '#{pane_title}'), 'SHELL-TITLE');
		const counts = sim.stats.byRoute;
		const route = (what: string) => (routes === 'proxy' ? `GET /api/v1/app-conversations/:id/git/${what}` : `GET /runtime/:n/api/git/${what}/:path`);
		assert.equal(counts[route('changes')], 1, 'one request for the list');
		assert.equal(counts[route('diff')], 2, 'one per file opened');
	});
}

test('Changes at 100x30 where the spec names /home/openhands/workspace and the agent works in /workspace/project (folders that do not exist: 400/502): the files, no error', {skip, timeout: 120_000}, async () => {
	const sim: Simulator = await startSimulator({port: 0, seed: 2, tickMs: 0, fleetShapes: true});
	cleanups.push(() => sim.close());
	sim.faults.gitMissingFolder('error');
	const lie = specFolderMismatch(sim);
	const app = ['env -u CI', `OPENHANDS_API_KEY=${shellQuote(sim.apiKey)}`, cliCommand(), `--base-url ${shellQuote(sim.baseUrl)}`].join(' ');
	const tmux = startTmux({columns: 100, rows: 30, command: `sh -c ${shellQuote(`${app}; printf 'EXIT=%s\\n' $?; sleep 60`)}`, cwd: root});
	cleanups.push(() => tmux.kill());
	await tmux.waitFor((screen) => screen.includes('Conversations (') && screen.includes('› '), 'the list', 40_000);
	tmux.send('/');
	tmux.send(lie.title, {literal: true});
	tmux.send('Enter');
	await tmux.waitFor((text) => text.split('\n').some((row) => row.startsWith('› ') && row.includes(lie.title.slice(0, 16))), 'the conversation selected');
	tmux.send('d');
	const name = lie.repository!.split('/').at(-1)!;
	const screen = await tmux.waitFor((text) => text.includes(`Changes · /workspace/project/${name}`) && text.includes(hostileFilePath), 'its changed files', 20_000);
	assert.match(screen, /M README\.md +\?/);
	assert.doesNotMatch(screen, /Could not read|no git repository|cannot change/);
	tmux.send('Escape');
	await tmux.waitFor((text) => !text.includes('Changes ·'), 'the dashboard');
	tmux.send('q');
	await tmux.waitFor((text) => text.includes('EXIT=0'), 'a clean exit', 20_000);
});
