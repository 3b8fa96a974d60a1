import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

/**
 * Loaded before every test file (`--import`, in the npm test scripts): the file's own state folder
 * (XDG_STATE_HOME), removed when the file's process ends. Code under test that keeps state on
 * disk by default (the shared request budget's ledgers, snoozes) then writes there, never under the
 * developer's ~/.local/state, and two files run side by side never share a ledger. A test that is
 * about the state folder passes an environment of its own, as before; CLIs the tests start get
 * theirs from test/helpers/built-cli.ts.
 */
const home = mkdtempSync(join(tmpdir(), 'agent-tui-test-state-'));
process.env['XDG_STATE_HOME'] = home;
process.on('exit', () => {
	rmSync(home, {recursive: true, force: true});
});
