import assert from 'node:assert/strict';
import {test} from 'node:test';
import {runWatch} from '../source/commands/watch.js';
import type {CommandFlags} from '../source/commands/flags.js';
import type {Io} from '../source/commands/io.js';
import {startSimulator} from '../source/simulator/server.js';
import {AppClient} from '../source/wire/app-client.js';
import {KeyRejectedError} from '../source/wire/errors.js';
import type {Sandbox} from '../source/wire/schemas/app.js';
import {serverOnOwnTransport} from './helpers/command-server.js';
import {eventually} from './helpers/eventually.js';

/**
 * `watch` holds a sandbox's new status until the sandbox list says why (up to 20 s). When watch
 * ends meanwhile (ctrl-c, a timeout, a refused key), what it holds is printed, not lost.
 */

/** An app client whose sandbox list lags on demand (it keeps answering the last list), and whose key can be refused. */
class LaggingApp extends AppClient {
	lag = false;
	refuse = false;
	sandboxReads = 0;
	/** Answers the store has had, and reads still waiting for theirs. */
	sandboxAnswers = 0;
	sandboxReadsOpen = 0;
	#last: Sandbox[] = [];

	override async listSandboxes(...args: Parameters<AppClient['listSandboxes']>): Promise<Sandbox[]> {
		this.sandboxReads++;
		this.sandboxReadsOpen++;
		try {
			if (!this.lag) this.#last = await super.listSandboxes(...args);
			return this.#last;
		} finally {
			this.sandboxReadsOpen--;
			this.sandboxAnswers++;
		}
	}

	override async getConversations(...args: Parameters<AppClient['getConversations']>): ReturnType<AppClient['getConversations']> {
		if (this.refuse) throw new KeyRejectedError('the server rejected the API key', 401);
		return super.getConversations(...args);
	}
}

test('watch ends while a sandbox transition waits for its reason: the transition is printed, not dropped', {timeout: 60_000}, async (t) => {
	const sim = await startSimulator({port: 0, seed: 5, tickMs: 0, conversations: 6});
	const {app, server} = serverOnOwnTransport(t, sim, LaggingApp);
	let stdout = '';
	let stderr = '';
	const io: Io = {
		stdout: {write: (chunk: string) => ((stdout += chunk), true)} as unknown as Io['stdout'],
		stderr: {write: (chunk: string) => ((stderr += chunk), true)} as unknown as Io['stderr'],
		secrets: [sim.apiKey],
		debug: false,
	};
	const watching = runWatch(server, io, {json: true, status: []} as unknown as CommandFlags);
	await eventually(() => stderr.includes('watching 6 conversations'), 'the baseline', {timeoutMs: 30_000, pollMs: 50, detail: () => stderr});
	// The sandbox list has been answered once, and no read is under way: from then on a sandbox in
	// trouble makes the store ask it again at once. (Waiting only for a read to start lost a race:
	// a read in flight when the status changed below was answered with ERROR and its reason, the
	// store had nothing to ask, and this test waited 30 s for a read that had no reason to come.)
	await eventually(() => app.sandboxAnswers > 0 && app.sandboxReadsOpen === 0, 'the first sandbox list answered', {timeoutMs: 30_000, pollMs: 50});

	// The runtime fails a running sandbox; the sandbox list lags behind, still saying RUNNING.
	const conversation = sim.world.conversationList().find((entry) => sim.world.findSandbox(entry.sandboxId)?.status === 'RUNNING')!;
	const sandbox = sim.world.findSandbox(conversation.sandboxId)!;
	app.lag = true;
	const readsBefore = app.sandboxReads;
	sim.world.setSandboxStatus(sandbox, 'ERROR', 'OOMKilled');
	// The store asks the sandbox list at once when a conversation shows its sandbox in trouble: by
	// then it has published the row (its batch timer runs before the next poll's), and watch holds it.
	await eventually(() => app.sandboxReads > readsBefore, 'the sandbox list asked for the reason', {timeoutMs: 30_000, pollMs: 50});
	assert.equal(stdout, '', 'held for its reason');
	// Then the key is refused: watch ends (exit 3).
	app.refuse = true;
	await assert.rejects(watching, KeyRejectedError);
	const lines = stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as {id: string; which: string; to: string});
	assert.deepEqual(
		lines.filter((line) => line.which === 'sandbox').map((line) => [line.id, line.to.toUpperCase()]),
		[[conversation.id, 'ERROR']],
		`stdout: ${stdout}\nstderr: ${stderr}`,
	);
});
