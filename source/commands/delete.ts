import {createInterface} from 'node:readline/promises';
import type {AppConversation} from '../wire/schemas/app.js';
import {normalizeId} from '../wire/ids.js';
import {planDelete, runDeletePlan} from '../state/delete-plan.js';
import {findConversation} from './conversation-lookup.js';
import {ExitCode} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {note, printText, type Io} from './io.js';
import type {Server} from './server.js';

/**
 * `agent-tui delete <id>...`: deletes conversations and the sandboxes only they use
 * (state/delete-plan.ts). It lists what it will delete, then asks on a terminal (y/N); in a script
 * (no terminal on stdin) it needs `--yes`, and without it deletes nothing and exits 2. Just
 * before acting the conversations are read again: one that changed since it was listed is left
 * out and said. An unknown id: nothing is deleted, exit 4.
 */
export async function runDelete(server: Server, io: Io, ids: readonly string[], flags: Pick<CommandFlags, 'yes'>, input: NodeJS.ReadableStream & {isTTY?: boolean} = process.stdin): Promise<number> {
	const chosen: AppConversation[] = [];
	for (const id of ids) {
		const conversation = await findConversation(server, io, id);
		if (!chosen.some((other) => normalizeId(String(other.id)) === normalizeId(String(conversation.id)))) chosen.push(conversation);
	}
	// Who else uses their sandboxes (sub-agents, shared sandboxes): those sandboxes are kept.
	const others: AppConversation[] = [];
	for (const sandboxId of new Set(chosen.flatMap((conversation) => (conversation.sandbox_id ? [String(conversation.sandbox_id)] : [])))) {
		others.push(...(await server.pace(`delete-sharing:${sandboxId}`, 'action')((signal) => server.app.listConversations({sandboxId, signal}))));
	}
	const plan = planDelete(chosen, others);
	const kept = chosen.filter((conversation) => conversation.sandbox_id && !plan.sandboxIds.includes(String(conversation.sandbox_id))).length;
	printText(io, `Will delete ${plan.targets.length} conversation${plan.targets.length === 1 ? '' : 's'} and ${plan.sandboxIds.length} sandbox${plan.sandboxIds.length === 1 ? '' : 'es'}${kept > 0 ? ` (${kept} sandbox${kept === 1 ? '' : 'es'} kept: another conversation uses it)` : ''}:`);
	for (const target of plan.targets) printText(io, `  ${target.id}  ${target.sandboxStatus ?? '-'}  ${target.updatedAt ?? '-'}  ${target.title ?? '(untitled)'}`);

	if (!flags.yes) {
		if (!input.isTTY) {
			note(io, 'delete asks before it deletes, and there is no terminal to ask on: run it again with --yes to delete the conversations listed above');
			return ExitCode.usage;
		}
		const prompt = createInterface({input, output: io.stderr});
		const answer = await prompt.question('Delete them? [y/N] ');
		prompt.close();
		if (!/^\s*y(es)?\s*$/i.test(answer)) {
			note(io, 'nothing deleted');
			return ExitCode.ok;
		}
	}

	const outcome = await runDeletePlan(server.app, server.budget, plan, (progress) => {
		if (progress.kind === 'dropped') note(io, `left out ${progress.id}: ${progress.reason === 'gone' ? 'it is gone already' : 'it changed since it was listed'}`);
		else if (progress.kind === 'failed') note(io, `could not delete ${progress.what} ${progress.id}: ${progress.reason}`);
	});
	printText(io, `deleted ${outcome.deleted.length} conversation${outcome.deleted.length === 1 ? '' : 's'} and ${outcome.sandboxesDeleted.length} sandbox${outcome.sandboxesDeleted.length === 1 ? '' : 'es'}`);
	return outcome.failed.length > 0 ? ExitCode.server : ExitCode.ok;
}
