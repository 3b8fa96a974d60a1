import {test} from 'node:test';
import assert from 'node:assert/strict';
import {useSyncExternalStore} from 'react';
import {cellWidth} from '../source/format/width.js';
import {buildLaunchLink} from '../source/wire/launch-link.js';
import type {StartProgress} from '../source/state/dashboard-types.js';
import {StartForm} from '../source/view/start/StartForm.js';
import type {StartRequest} from '../source/view/start/start-form-state.js';
import {startTaskSchema} from '../source/wire/schemas/app.js';
import {keys, press as pressOnly, renderSized, waitForFrame} from './helpers/ink.js';
import {KeyHarness} from './helpers/pane-harness.js';

/** Press and wait for the frame (waitForFrame then lets React run the effects where handlers register). */
const press = pressOnly;

/** The store's `start` slice and the controller calls the form makes, as the state layer would see them. */
class FakeStart {
	progress: StartProgress = {state: 'idle', phases: [], error: null, conversationKey: null};
	readonly requests: StartRequest[] = [];
	readonly opened: string[] = [];
	resets = 0;
	closes = 0;
	readonly #listeners = new Set<() => void>();
	subscribe = (listener: () => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	get = () => this.progress;
	set(progress: Partial<StartProgress>): void {
		this.progress = {...this.progress, ...progress};
		for (const listener of this.#listeners) listener();
	}

	/** One start-task snapshot per status, parsed like the wire layer does. */
	phase(status: string, extra: Record<string, unknown> = {}): void {
		const task = startTaskSchema.parse({id: 'task1', status, ...extra});
		this.set({state: status === 'ERROR' ? 'error' : status === 'READY' ? 'ready' : 'starting', phases: [...this.progress.phases, task]});
	}
}

function Form({fake, width, height}: {fake: FakeStart; width: number; height: number}) {
	const progress = useSyncExternalStore(fake.subscribe, fake.get);
	return (
		<KeyHarness stack={['start', 'always']}>
			<StartForm
				progress={progress}
				width={width}
				height={height}
				active
				onSubmit={(request) => {
					fake.requests.push(request);
					fake.set({state: 'starting', phases: [], error: null});
				}}
				onOpenConversation={(key) => fake.opened.push(key)}
				onReset={() => {
					fake.resets++;
					fake.set({state: 'idle', phases: [], error: null, conversationKey: null});
				}}
				onClose={() => fake.closes++}
			/>
		</KeyHarness>
	);
}

async function mount(columns = 90, rows = 20) {
	const fake = new FakeStart();
	const view = renderSized(<Form fake={fake} width={columns} height={rows} />, {columns, rows: rows + 1});
	await waitForFrame(view.lastFrame, (text) => text.includes('Start a conversation'));
	return {fake, view};
}

function assertFits(frame: string, width: number): void {
	for (const line of frame.split('\n')) assert.ok(cellWidth(line) <= width, `line wider than ${width}: ${JSON.stringify(line)}`);
}

/** Tab until `label` is the focused button (drawn as `›label`). */
async function focusButton(view: Awaited<ReturnType<typeof mount>>['view'], label: string): Promise<string> {
	for (let index = 0; index < 20; index++) {
		if (view.lastFrame().includes(`›${label}`)) return view.lastFrame();
		await press(view, keys.tab, () => true);
	}

	throw new Error(`${label} never got the focus:\n${view.lastFrame()}`);
}

async function type(view: Awaited<ReturnType<typeof mount>>['view'], text: string, expect: string): Promise<string> {
	view.stdin.write(text);
	return waitForFrame(view.lastFrame, (value) => value.includes(expect));
}

test('typing a message, a repository and a plugin, then start: the request goes to the controller and phases stream until READY', async (t) => {
	const {fake, view} = await mount();
	t.after(() => view.unmount());
	await type(view, 'Fix the failing tests', 'Fix the failing tests');
	await press(view, keys.tab, (text) => /› repository/.test(text));
	await type(view, 'octo/app', 'octo/app');
	await press(view, keys.tab, (text) => /› launch link/.test(text));
	await press(view, keys.tab, (text) => !/› launch link/.test(text));
	// [+ add plugin] has the focus: enter adds a row and moves into its source field.
	let frame = await press(view, keys.enter, (text) => text.includes('plugins (1)') && text.includes('›source'));
	await type(view, 'github:octo/plugins', 'github:octo/plugins');
	await press(view, keys.tab, (text) => text.includes('›ref'));
	await type(view, 'v1', 'v1');
	await press(view, keys.tab, (text) => text.includes('›path'));
	await type(view, 'lint', 'lint');
	frame = await press(view, keys.tab, (text) => text.includes('›[remove]'));
	frame = await focusButton(view, '[start]');
	assertFits(frame, 90);
	await press(view, keys.enter, () => fake.requests.length === 1);
	assert.deepEqual(fake.requests[0], {
		message: 'Fix the failing tests',
		repository: 'octo/app',
		plugins: [{source: 'github:octo/plugins', ref: 'v1', repo_path: 'lint'}],
	});
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('Sending the request…'));
	fake.phase('WORKING');
	fake.phase('WAITING_FOR_SANDBOX', {sandbox_id: 'sb1'});
	fake.phase('PREPARING_REPOSITORY');
	fake.phase('SETTING_UP_GIT_HOOKS');
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('[4/8] SETTING_UP_GIT_HOOKS'));
	assert.match(frame, /✓ \[0\/8\] WORKING/);
	assert.match(frame, /✓ \[2\/8\] PREPARING_REPOSITORY/);
	assert.match(frame, /… \[4\/8\] SETTING_UP_GIT_HOOKS/);
	fake.phase('SETTING_UP_GIT_HOOKS');
	fake.phase('BRAND_NEW_PHASE');
	frame = await waitForFrame(view.lastFrame, (text) => text.includes('[?/8] BRAND_NEW_PHASE'));
	assert.equal((frame.match(/SETTING_UP_GIT_HOOKS/g) ?? []).length, 1, 'a repeated snapshot of one phase shows once');
	fake.phase('READY', {app_conversation_id: 'abc'});
	fake.set({conversationKey: 'abc'});
	await waitForFrame(view.lastFrame, (text) => text.includes('✓ [8/8] READY'));
	// Opened from the effect of the render that showed READY; the effects of that render have run.
	await waitForFrame(() => fake.opened.join(','), (value) => value === 'abc');
	assert.deepEqual(fake.opened, ['abc'], 'the conversation opens exactly once');
});

test('a pasted launch link fills the plugins, and nothing starts until "trust" is typed', async (t) => {
	const {fake, view} = await mount(100, 22);
	t.after(() => view.unmount());
	const link = buildLaunchLink(
		'https://app.all-hands.dev',
		[
			{source: 'github:octo/oh-plugins', ref: 'main', repo_path: 'plugins/city-weather', parameters: {units: 'metric'}},
			{source: 'https://git.example.com/tools.git'},
		],
		'/city-weather:now Tokyo',
	);
	// Pasted into the message field, as people do.
	let frame = await type(view, link, 'plugins (2)');
	assert.match(frame, /city-weather:now Tokyo/);
	assert.match(frame, /✓ launch link from https:\/\/app\.all-hands\.dev: 2 plugins below/);
	assert.match(frame, /github:octo\/oh-plugins/);
	assert.match(frame, /git\.example\.com\/tools\.git/);
	assert.match(frame, /message +\/city-weather:now Tokyo$/m, 'the link itself is gone from the message');
	assertFits(frame, 100);
	// Move to the start button: everything from here until `trust` must not start anything.
	await focusButton(view, '[review and start]');
	frame = await press(view, keys.enter, (text) => text.includes('came from a launch link'));
	assert.match(frame, /⚠ These 2 plugins came from a launch link \(https:\/\/app\.all-hands\.dev\)/);
	assert.match(frame, /1\. github:octo\/oh-plugins @ main : plugins\/city-weather {2}parameters {"units":"metric"}/);
	assert.match(frame, /run code in the sandbox and use this conversation's secrets/);
	frame = await press(view, keys.enter, (text) => text.includes('Type "trust" to start'));
	assert.equal(fake.requests.length, 0);
	view.stdin.write('trust');
	await waitForFrame(view.lastFrame, (text) => /: trust/.test(text));
	await press(view, keys.enter, () => fake.requests.length === 1);
	assert.deepEqual(fake.requests[0], {
		message: '/city-weather:now Tokyo',
		plugins: [
			{source: 'github:octo/oh-plugins', ref: 'main', repo_path: 'plugins/city-weather', parameters: {units: 'metric'}},
			{source: 'https://git.example.com/tools.git'},
		],
	});
});

test('a bad link gives a clear error in place and blocks the start; validation errors are shown', async (t) => {
	const {fake, view} = await mount();
	t.after(() => view.unmount());
	await press(view, keys.tab, (text) => /› repository/.test(text));
	await type(view, 'not a repo!', 'not a repo!');
	await press(view, keys.tab, (text) => /› launch link/.test(text));
	let frame = await type(view, 'https://app.all-hands.dev/launch?plugins=%%%bad', '✗ launch link');
	assert.match(frame, /✗ launch link: the plugins parameter is not base64/);
	// Shift-tab back to the top, then up wraps around to [start].
	await press(view, keys.shiftTab, (text) => /› repository/.test(text));
	await press(view, keys.shiftTab, (text) => /› message/.test(text));
	await press(view, keys.up, (text) => text.includes('›[start]'));
	frame = await press(view, keys.enter, (text) => text.includes('Write a message'));
	assert.match(frame, /Launch link: the plugins parameter is not base64/);
	assert.match(frame, /Repository must look like owner\/name\./);
	assert.equal(fake.requests.length, 0);
	assertFits(frame, 90);
});

test('a failed start shows its error in place; enter returns to the form with the input kept; esc closes', async (t) => {
	const {fake, view} = await mount();
	t.after(() => view.unmount());
	await type(view, 'Do the thing', 'Do the thing');
	await press(view, keys.up, (text) => text.includes('›[start]'));
	await press(view, keys.enter, () => fake.requests.length === 1);
	fake.phase('WORKING');
	fake.phase('WAITING_FOR_SANDBOX');
	fake.phase('ERROR', {detail: 'Sandbox limit reached: pause one first'});
	fake.set({error: 'Sandbox limit reached: pause one first'});
	let frame = await waitForFrame(view.lastFrame, (text) => text.includes('Start failed'));
	assert.match(frame, /✗ ERROR/);
	assert.match(frame, /Start failed: Sandbox limit reached: pause one first/);
	assert.deepEqual(fake.opened, []);
	frame = await press(view, keys.enter, (text) => text.includes('Do the thing') && text.includes('[start]'));
	assert.equal(fake.resets, 1);
	view.stdin.write(keys.escape);
	await waitForFrame(() => String(fake.closes), (value) => value === '1');
});

test('the form fits small terminals and windows a long plugin list', async (t) => {
	const {view} = await mount(60, 14);
	t.after(() => view.unmount());
	const specs = Array.from({length: 12}, (_, index) => ({source: `github:octo/plugin-${index}`}));
	const frame = await type(view, buildLaunchLink('https://h.example', specs), 'plugins (12)');
	assert.match(frame, /more plugins/);
	assert.ok(frame.split('\n').length <= 14);
	assertFits(frame, 60);
});
