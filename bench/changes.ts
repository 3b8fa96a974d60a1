import {stripVTControlCharacters} from 'node:util';
import {createElement} from 'react';
import {computeFileDiff} from '../source/format/file-diff.js';
import {hostileFilePath, largeFileChangedPlaces, largeFileLines, largeFilePath, workspaceFor} from '../source/simulator/git-workspace.js';
import {startSimulator} from '../source/simulator/server.js';
import {createDashboard} from '../source/state/dashboard-store.js';
import {AppClient} from '../source/wire/app-client.js';
import {keyToFrame, mount, settle} from './ink-harness.js';
import type {Sizes} from './sizes.js';
import {type BenchRow, median, ms} from './table.js';

/**
 * The Changes view on the real store against the simulator over loopback, at 160x48: `d` on a
 * conversation, down to its 5,000-line file changed in 12 places, enter (the key to the first
 * frame of its diff: the request, the diff and the render), then pages down and up through it.
 * The simulator counts the git requests: the list once, then one per file opened.
 */
export async function benchChanges(sizes: Sizes): Promise<BenchRow[]> {
	const {Dashboard} = await import('../source/view/Dashboard.js');
	const sim = await startSimulator({port: 0, seed: 1, tickMs: 0});
	const appClient = new AppClient({baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0});
	const {store, controller} = createDashboard({appClient, appBaseUrl: sim.baseUrl, serverLabel: 'bench', demo: false, flushMs: 20, budget: {perSecond: 200, perMinute: 10_000}});
	const mounted = await mount(createElement(Dashboard, {store, controller, onQuit: () => undefined}), {columns: 160, rows: 48});
	try {
		for (let waited = 0; store.getSnapshot().conversations.size === 0 && waited < 10_000; waited += 20) await settle(20);
		await settle(200);
		await keyToFrame(mounted, 'd', (frame) => frame.includes(hostileFilePath));
		const repository = /Changes \u00B7 \/workspace\/project\/(\S+)/.exec(mounted.stdout.last)?.[1];
		const files = workspaceFor(sim.world.conversationList().find((row) => row.repository?.endsWith(`/${repository}`))?.repository ?? null)!.files;
		const large = files.findIndex((file) => file.path === largeFilePath);
		for (let step = 0; step < large; step++) await keyToFrame(mounted, 'j');
		const before = gitRequests(sim.stats.byRoute);
		const first = await keyToFrame(mounted, '\r', (frame) => frame.includes('hunk 1/12'));
		const afterOpen = gitRequests(sim.stats.byRoute);
		const diff = computeFileDiff(files[large]!.original, files[large]!.modified);
		// A page down, then up, and again: every press moves the window a page, so each makes a frame.
		const pages: number[] = [];
		const presses = sizes.tiny ? 6 : 40;
		for (let press = 0; press < presses; press++) pages.push(await keyToFrame(mounted, press % 2 === 0 ? '\u001B[6~' : '\u001B[5~'));
		// The diff is kept: back to the list and in again costs no request and no diff.
		await keyToFrame(mounted, '\u001B', (frame) => frame.includes('status, path'));
		const again = await keyToFrame(mounted, '\r', (frame) => frame.includes('hunk 1/12'));
		const requests = gitRequests(sim.stats.byRoute);
		const listRequests = requests.list;
		const fileRequests = requests.files;
		// Fresh opens: ctrl-r drops the list and every diff read, so each enter requests the file
		// and diffs it again. The first open above also paid for compiling that code (JIT).
		const fresh: number[] = [];
		for (let open = 0; open < (sizes.tiny ? 2 : 11); open++) {
			await keyToFrame(mounted, '\u001B', (frame) => frame.includes('status, path'));
			await keyToFrame(mounted, '\u0012', (frame) => new RegExp(`› M ${largeFilePath.replace('.', '\\.')} +\\?`).test(stripVTControlCharacters(frame)));
			fresh.push(await keyToFrame(mounted, '\r', (frame) => frame.includes('hunk 1/12')));
		}
		const place = `${largeFileLines.toLocaleString('en-US')}-line file, ${largeFileChangedPlaces} changed places, ${diff.rows.length} diff rows, 160x48`;
		return [
			{
				area: 'changes',
				name: `key to the first diff frame: request, diff, render (median of ${fresh.length} opens after ctrl-r; the very first, compiling the code: ${ms(first)}; reopened from the cache: ${ms(again)}), ${place}`,
				figure: ms(median(fresh)),
				target: '< 100 ms',
				met: median(fresh) < 100 && afterOpen.files - before.files === 1,
			},
			{area: 'changes', name: `scroll a page in the diff (median of ${presses} pgdn/pgup), ${place}`, figure: ms(median(pages)), target: '< 16 ms', met: median(pages) < 16},
			{
				area: 'changes',
				name: `requests: open the Changes view of 8 files, read 1 file, reopen it (list ${listRequests}, files ${fileRequests})`,
				figure: String(listRequests + fileRequests),
				target: 'list 1 + 1 per file opened = 2',
				met: listRequests === 1 && fileRequests === 1,
			},
		];
	} finally {
		mounted.unmount();
		await controller.close();
		await sim.close();
	}
}

function gitRequests(byRoute: Record<string, number>) {
	// Through the app server's proxy or to the agent server directly: either is one request.
	const sum = (...names: string[]) => names.reduce((total, name) => total + (byRoute[`GET /runtime/:n/api/git/${name}`] ?? 0) + (byRoute[`GET /api/v1/app-conversations/:id/git/${name}`] ?? 0), 0);
	return {list: sum('changes', 'changes/:path'), files: sum('diff', 'diff/:path')};
}
