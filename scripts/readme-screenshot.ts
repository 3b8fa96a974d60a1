import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {shellQuote, startTmux, tmuxAvailable, type TmuxSession} from '../test/helpers/tmux.js';

/**
 * Regenerates the screenshot in readme.md from a real terminal: the dashboard exactly as a
 * newcomer gets it (`npm start` with nothing configured, so on the embedded simulator), in tmux
 * at a fixed size, captured with `capture-pane`. Replaces the text between the
 * `<!-- screenshot:NAME -->` and `<!-- /screenshot:NAME -->` markers.
 *
 *   npm run screenshot
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const readmePath = join(root, 'readme.md');

type Shot = {name: string; columns: number; rows: number; steps: (tmux: TmuxSession) => Promise<string>};

const shots: Shot[] = [
	{
		name: 'list',
		columns: 120,
		rows: 30,
		// The first screen: the attention queue on top, the selected row's preview below.
		steps: async (tmux) => tmux.waitFor((screen) => /(polling|live) · /.test(screen) && /\d+ need you/.test(screen) && /Sandboxes \([1-9]/.test(screen), 'the conversation list'),
	},
];

async function capture(shot: Shot, home: string): Promise<string> {
	const command = ['env -u CI -u OPENHANDS_BASE_URL -u OPENHANDS_API_KEY', `HOME=${shellQuote(home)}`, `XDG_CONFIG_HOME=${shellQuote(home)}`, 'node --import tsx source/bin.ts'].join(' ');
	const tmux = startTmux({columns: shot.columns, rows: shot.rows, command: `sh -c ${shellQuote(`${command}; sleep 30`)}`, cwd: root});
	try {
		const screen = await shot.steps(tmux);
		// Let relative times settle on one render, then take the picture.
		await new Promise((resolve) => setTimeout(resolve, 500));
		return tmux.capture().replace(/\s+$/gm, '').trimEnd() || screen;
	} finally {
		tmux.send('q');
		tmux.kill();
	}
}

function replaceShot(readme: string, name: string, screen: string): string {
	const open = `<!-- screenshot:${name} -->`;
	const close = `<!-- /screenshot:${name} -->`;
	const start = readme.indexOf(open);
	const end = readme.indexOf(close);
	if (start === -1 || end === -1 || end < start) throw new Error(`readme.md has no ${open} … ${close} block`);
	const block = `${open}\n\`\`\`text\n${screen}\n\`\`\`\n`;
	return readme.slice(0, start) + block + readme.slice(end);
}

async function main(): Promise<void> {
	if (!tmuxAvailable()) throw new Error('tmux is needed to take the screenshots');
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-shot-'));
	try {
		let readme = readFileSync(readmePath, 'utf8');
		for (const shot of shots) {
			const screen = await capture(shot, home);
			readme = replaceShot(readme, shot.name, screen);
			process.stdout.write(`${shot.name}: ${shot.columns}x${shot.rows}, ${screen.split('\n').length} lines\n`);
		}
		writeFileSync(readmePath, readme);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
}

await main();
