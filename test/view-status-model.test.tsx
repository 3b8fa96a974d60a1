import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Dashboard} from '../source/view/Dashboard.js';
import {conversationCells, conversationColumns} from '../source/view/conversation-cells.js';
import {planSandboxAction} from '../source/view/sandbox-question.js';
import {conversationRow, fixtureSnapshot, fixtureStore, fleetSeeds, hexId, recordingController, sandboxRow} from './helpers/dashboard-fixture.js';
import {press, renderSized, waitForFrame} from './helpers/ink.js';

/** Agent status and sandbox status on screen: two columns, two words, two looks. */

const seeds = () => [
	...fleetSeeds(),
	{id: hexId(9), title: 'Migrate the billing tables', repo: 'acme/db', execution: null, sandbox: 'PAUSED', lastKnown: 'error', updatedMinutesAgo: 20},
	{id: hexId(10), title: 'Archive the old reports', repo: 'acme/db', execution: 'archived_v9', updatedMinutesAgo: 5},
];

test('a row keeps its agent status apart from its sandbox status; last known is said as such', () => {
	const columns = conversationColumns(80);
	const lastKnown = conversationCells(conversationRow(seeds().at(-2)!), columns, Date.now());
	assert.equal(lastKnown.status.trim(), '✗ was error');
	assert.equal(lastKnown.sandbox.trim(), '□ paused');
	assert.match(lastKnown.reason, /^! error/);
	const agentPaused = conversationCells(conversationRow({id: hexId(11), title: 'x', execution: 'paused'}), columns, Date.now());
	assert.equal(agentPaused.status.trim(), '‖ paused');
	assert.equal(agentPaused.sandbox.trim(), '● running');
	const unknown = conversationCells(conversationRow(seeds().at(-1)!), columns, Date.now());
	assert.equal(unknown.status.trim(), '? archived_v9');
	const neverSeen = conversationCells(conversationRow({id: hexId(12), title: 'y', execution: null, sandbox: 'MISSING'}), columns, Date.now());
	assert.equal(neverSeen.status.trim(), '— none', 'no agent status seen: not called paused');
});

test('80x24: the paused sandbox of an errored conversation keeps it in the need-you count; status: and sandbox: filter what the columns show', async () => {
	const snapshot = fixtureSnapshot({}, seeds());
	const rendered = renderSized(<Dashboard store={fixtureStore(snapshot)} controller={recordingController()} onQuit={() => undefined} />, {columns: 80, rows: 24});
	let frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('Migrate the bill'));
	const header = frame.split('\n')[0] ?? '';
	assert.match(header, /! 4 need you/, header);
	const row = frame.split('\n').find((line) => line.includes('Migrate the bill')) ?? '';
	assert.match(row, /✗ was error +□ paused +! error/);
	await press(rendered, '/', (text) => text.includes('of 10'));
	rendered.stdin.write('status:error');
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('2 of 10'));
	assert.match(frame, /Migrate the bill/);
	assert.match(frame, /Investigate memory/);
	rendered.stdin.write(' sandbox:paused');
	frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('1 of 10'));
	assert.match(frame, /Migrate the bill/);
	rendered.unmount();
});

test('the dashboard filter: an unknown status is a notice, and still filters', async () => {
	const rendered = renderSized(<Dashboard store={fixtureStore(fixtureSnapshot({}, seeds()))} controller={recordingController()} onQuit={() => undefined} />, {columns: 100, rows: 30});
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Archive the old'));
	await press(rendered, '/', (text) => text.includes('of 10'));
	rendered.stdin.write('status:archived_v9');
	const frame = await waitForFrame(rendered.lastFrame, (text) => text.includes('1 of 10'));
	assert.match(frame, /"status:archived_v9" not a known status/);
	assert.match(frame, /Archive the old/);
	assert.doesNotMatch(frame, /Fix the flaky/);
	rendered.unmount();
});

test('r on an ERROR or MISSING sandbox says it cannot be resumed (no "resume it" advice); a PAUSED one asks', () => {
	const snapshot = fixtureSnapshot();
	const sandboxes = new Map(snapshot.sandboxes);
	for (const [key, status] of [['sb-err', 'ERROR'], ['sb-gone', 'MISSING'], ['sb-paused', 'PAUSED']] as const) sandboxes.set(key, sandboxRow({id: key, status}));
	const plans = ['sb-err', 'sb-gone', 'sb-paused'].map((key) => planSandboxAction({...snapshot, sandboxes}, 'resume', key));
	assert.deepEqual(plans[0], {kind: 'refuse', text: 'Sandbox sb-err is failed (ERROR): it cannot be resumed; its history is still readable, start a new conversation to go on.'});
	assert.match((plans[1] as {text: string}).text, /gone \(MISSING\): it cannot be resumed/);
	assert.equal(plans[2]!.kind, 'ask');
});

test('80 columns: a row keeps enough of its title to tell rows apart; the attention badge shortens first', () => {
	const columns = conversationColumns(80);
	assert.ok(columns.title >= 28, `title column ${columns.title}`);
	const row = conversationRow({id: hexId(13), title: 'Investigate memory growth in the importer', execution: 'error', updatedMinutesAgo: 12});
	const withReason = {...row, attention: [{kind: 'sandbox_error' as const, status: 'MISSING', since: null}, ...row.attention]};
	const cells = conversationCells(withReason, columns, Date.now());
	assert.ok(cells.title.startsWith('Investigate memor'), `the title keeps at least 16 cells: ${JSON.stringify(cells.reason + cells.title)}`);
	assert.match(cells.reason, /^! /, 'the badge is still there, shorter');
	const narrow = conversationCells(withReason, conversationColumns(60), Date.now());
	assert.ok(narrow.title.replace(/…$/, '').trim().length >= 16 || narrow.reason === '', JSON.stringify(narrow.reason + narrow.title));
});

test('80 columns: the header keeps the need-you count and the clock note; status counts go first', async () => {
	const {Header} = await import('../source/view/Header.js');
	const {countConversations} = await import('../source/state/conversation-query.js');
	const {liveConnection} = await import('./helpers/dashboard-fixture.js');
	const {render} = await import('ink-testing-library');
	const snapshot = fixtureSnapshot({}, seeds());
	const rendered = render(
		<Header serverLabel="https://app.all-hands.example.com/a/very/long/path" demo={false} connection={{...liveConnection, clockOffsetMs: -21 * 86_400_000}} counts={countConversations(snapshot)} invalidItems={3} width={80} />,
	);
	const frame = rendered.lastFrame() ?? '';
	assert.ok(frame.length <= 80, frame);
	assert.match(frame, /! 4 need you/);
	assert.match(frame, /server clock 21d behind/);
	rendered.unmount();
});

test('every server at once: a server whose data clock is off says so beside its health, as the one-server header does', async () => {
	const {Header} = await import('../source/view/Header.js');
	const {countConversations} = await import('../source/state/conversation-query.js');
	const {liveConnection} = await import('./helpers/dashboard-fixture.js');
	const {render} = await import('ink-testing-library');
	const snapshot = fixtureSnapshot({}, seeds());
	// In the all-servers view the merged connection's offset is 0: each row has its own server's.
	const servers = [
		{name: 'work', label: 'app.example.test', connection: {...liveConnection, health: 'polling' as const, clockOffsetMs: -24 * 86_400_000, clockSource: 'data' as const}},
		{name: 'lab', label: 'lab.example.test', connection: {...liveConnection, health: 'polling' as const, clockOffsetMs: 1500, clockSource: 'data' as const}},
	];
	for (const width of [160, 80]) {
		const rendered = render(<Header serverLabel="2 servers" demo={false} connection={{...liveConnection, clockOffsetMs: 0}} servers={servers} counts={countConversations(snapshot)} invalidItems={0} width={width} />);
		const frame = rendered.lastFrame() ?? '';
		assert.ok(frame.length <= width, frame);
		assert.match(frame, /work ◐ ⏱ 24d behind · lab ◐/, `${width}: ${frame}`);
		assert.doesNotMatch(frame, /lab ◐ ⏱/, 'a second and a half is no news');
		assert.match(frame, /! 4 need you/);
		rendered.unmount();
	}
});
