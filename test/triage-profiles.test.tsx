import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {listProfiles, resolveProfile} from '../source/config/profiles.js';
import {Dashboard} from '../source/view/Dashboard.js';
import {fixtureSnapshot, fixtureStore, recordingController} from './helpers/dashboard-fixture.js';
import {keys, press, renderSized, waitForFrame} from './helpers/ink.js';

/** Profiles switched inside the dashboard (ctrl-p): names and servers on screen, keys never. */

function configHome(t: {after(fn: () => void): void}) {
	const home = mkdtempSync(join(tmpdir(), 'agent-tui-profiles-'));
	t.after(() => rmSync(home, {recursive: true, force: true}));
	mkdirSync(join(home, 'agent-tui'), {recursive: true});
	writeFileSync(join(home, 'agent-tui', 'lab.key'), 'LAB-FILE-KEY-SECRET\n', {mode: 0o600});
	writeFileSync(
		join(home, 'agent-tui', 'config.json'),
		JSON.stringify({defaultProfile: 'work', profiles: {work: {baseUrl: 'https://app.example.test', apiKey: 'WORK-INLINE-KEY-SECRET'}, lab: {baseUrl: 'http://lab.internal:3000', apiKeyFile: 'lab.key'}}}),
		{mode: 0o600},
	);
	return {XDG_CONFIG_HOME: home, HOME: home};
}

test('profiles: the listing has names and servers, never a key; switching resolves one as --profile would', async (t) => {
	const env = configHome(t);
	const listed = listProfiles(env, () => undefined);
	assert.deepEqual(listed, [
		{name: 'work', label: 'app.example.test'},
		{name: 'lab', label: 'lab.internal:3000'},
	]);
	assert.ok(!JSON.stringify(listed).includes('SECRET'));
	// The environment's server and key chose the first server, not this one: they are left out.
	const lab = await resolveProfile('lab', {...env, OPENHANDS_BASE_URL: 'https://elsewhere.test', OPENHANDS_API_KEY: 'ENV-KEY'}, () => undefined);
	assert.equal(lab.kind, 'server');
	assert.ok(lab.kind === 'server');
	assert.equal(lab.baseUrl, 'http://lab.internal:3000');
	assert.equal(lab.apiKey?.reveal(), 'LAB-FILE-KEY-SECRET');
	assert.equal(lab.profile, 'lab');
	assert.equal(String(lab.apiKey), '[redacted]');
	await assert.rejects(resolveProfile('nope', env, () => undefined), /profile "nope" is not defined.*known profiles: work, lab/);
});

test('ctrl-p lists the profiles, enter switches to the chosen one, a failure is on the notice line', async (t) => {
	const switched: string[] = [];
	const rendered = renderSized(
		<Dashboard
			store={fixtureStore(fixtureSnapshot())}
			controller={recordingController()}
			onQuit={() => undefined}
			profiles={[
				{name: 'work', label: 'app.example.test'},
				{name: 'lab', label: 'lab.internal:3000'},
			]}
			currentProfile="work"
			onSwitchProfile={async (name) => {
				switched.push(name);
				return name === 'lab' ? 'Cannot switch to profile "lab": connect ECONNREFUSED' : null;
			}}
		/>,
		{columns: 80, rows: 24},
	);
	t.after(() => rendered.unmount());
	await waitForFrame(rendered.lastFrame, (text) => text.includes('Upgrade React'));
	let frame = await press(rendered, '\u0010', (text) => text.includes('Switch to a profile'));
	assert.match(frame, /● work · app\.example\.test/);
	assert.match(frame, /lab · lab\.internal:3000/);
	frame = await press(rendered, keys.down, (text) => /❯\s+lab/.test(text));
	frame = await press(rendered, keys.enter, (text) => text.includes('Cannot switch to profile "lab"'));
	assert.deepEqual(switched, ['lab']);
	assert.doesNotMatch(frame, /Switch to a profile/);
	await press(rendered, '\u0010', (text) => text.includes('Switch to a profile'));
	await press(rendered, keys.escape, (text) => !text.includes('Switch to a profile'));
});
