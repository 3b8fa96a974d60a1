import {memo} from 'react';
import {Box, Text} from 'ink';
import {linkName, maskedLink} from '../format/link-text.js';
import {formatCost, formatPercent, formatTokens} from '../format/numbers.js';
import {formatDuration, type AgeNow} from '../format/time.js';
import {budgetShare, sessionTimeLeft} from '../state/spend.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {TreeNode} from '../state/conversation-tree.js';
import type {ConversationRow} from '../state/dashboard-types.js';
import type {ExposedUrl} from '../wire/schemas/app.js';
import {attentionLong} from './attention-text.js';
import {rowNow} from './conversation-cells.js';
import {goalObjective, goalWords} from '../format/goal.js';
import {line} from './cells.js';
import {keyOf} from './keymap.js';
import {snoozeText} from '../state/snoozes.js';
import {contextFraction, totalTokens} from './triage/usage-look.js';

type Props = {
	row: ConversationRow | undefined;
	width: number;
	/** Now on the data's clock; `unknown` while it is not known (no ages then). */
	now: AgeNow;
	/** Its sandbox's links while it runs (links.ts); shown with tokens hidden. */
	links?: readonly ExposedUrl[];
	/** Where it sits among sub-agents (conversation-tree.ts). */
	node?: TreeNode | undefined;
	/** Its parent, when it is a sub-agent and the parent is listed. */
	parent?: ConversationRow | undefined;
	/** The agent's last answer (`agent_final_response`), read while its sandbox runs; unsanitized. */
	answer?: string | undefined;
};

export const previewRows = 2;

/**
 * Two lines about the selected conversation under the list: the whole title, repository and
 * branch, sandbox status and model; then why it needs a person (or its id and cost). The list
 * columns are narrow at 80 columns; this is where the full text is.
 */
function ConversationPreviewImpl({row, width, now: viewNow, links = [], node, parent, answer}: Props) {
	if (!row) {
		return (
			<Box height={previewRows} flexDirection="column">
				<Text dimColor wrap="truncate">
					{line('No conversation selected.', width)}
				</Text>
			</Box>
		);
	}

	const c = row.conversation;
	// In the all-servers view: its own server's clock, and whether that server answers.
	const now = rowNow(row, viewNow);
	const staleNote = row.server?.stale ? `! ${sanitizeLine(row.server.name)} is not answering: as last seen` : null;
	const repo = c.selected_repository ? `${sanitizeLine(c.selected_repository)}${c.selected_branch ? `@${sanitizeLine(c.selected_branch)}` : ''}` : 'no repository';
	const first = [
		c.title ? sanitizeLine(c.title) : '(untitled)',
		// Whose sub-agent it is, right after its title: the list shows it under its parent, cut.
		parentNote(c, parent),
		repo,
		// The sandbox's status, and why it is so when the runtime said (`ERROR: ImagePullBackOff`).
		`sandbox ${sanitizeLine(String(c.sandbox_status ?? 'MISSING'))}${row.sandboxDetail ? `: ${sanitizeLine(row.sandboxDetail)}` : ''}`,
		c.llm_model ? sanitizeLine(c.llm_model) : null,
	]
		.filter(Boolean)
		.join(' · ');
	const cost = c.metrics?.accumulated_cost;
	const spend = spendParts(row, now);
	const second =
		staleNote ??
		(row.attention.length > 0
			? [`! ${row.attention.map((reason) => sanitizeLine(attentionLong(reason, now))).join('; ')}`, goalNote(row), ...spend].filter(Boolean).join(' · ')
			: [
					goalNote(row),
					subAgentNote(node),
					typeof cost === 'number' ? formatCost(cost) : null,
					...spend,
					// The list has no room for these below 100 columns: the preview always says them.
					contextFraction(c) === null ? null : `context ${formatPercent(contextFraction(c))}`,
					totalTokens(c) === null ? null : `${formatTokens(totalTokens(c))} tokens`,
					row.unseenEvents > 0 ? `${row.unseenEvents} new events` : null,
					`id ${row.key}`,
				]
					.filter(Boolean)
					.join(' · '));
	// Never the link whole: its token is hidden here, and `l` copies it on request.
	const sessionKey = c.session_api_key?.reveal();
	const linkText = links.map((link) => `${linkName(String(link.name), link.port)} ${maskedLink(link.url.reveal(), sessionKey ? [sessionKey] : [])}`).join(' · ');
	// The agent's last answer, one line: first while nothing needs a person, after the reason otherwise.
	const said = answer?.trim() ? `said: "${sanitizeLine(answer.trim().replaceAll(/\s+/g, ' '))}"` : null;
	// Snoozed: said first, in words, with how to end it; its reasons follow without their `!`.
	const snoozed = row.snoozed && !staleNote ? `z snoozed ${snoozeText(row.snoozed, Date.now())} (${keyOf('unsnooze')} ends it) · ${second.replace(/^! /, '')}` : second;
	const withAnswer = said ? (staleNote || row.attention.length > 0 ? `${snoozed} · ${said}` : `${said} · ${snoozed}`) : snoozed;
	const withLinks = linkText ? `${withAnswer} · l ${linkText}` : withAnswer;
	return (
		<Box height={previewRows} flexDirection="column">
			<Text bold wrap="truncate">
				{line(first, width)}
			</Text>
			<Text color={staleNote || (row.attention.length > 0 && !row.snoozed) ? 'yellow' : undefined} dimColor={!staleNote && (row.attention.length === 0 || Boolean(row.snoozed))} wrap="truncate">
				{line(withLinks, width)}
			</Text>
		</Box>
	);
}

export const ConversationPreview = memo(ConversationPreviewImpl);

/**
 * What the conversation's money and time look like: `$12.4/h`, `32% of the $10.00 budget`, and
 * the time left before the service's 12-hour cap on a running session (`12h cap in 7h 12m`; `≥`
 * when the session's start was not seen, only the sandbox's creation).
 */
export function spendParts(row: ConversationRow, now: AgeNow): string[] {
	const parts: string[] = [];
	if (typeof row.costPerHour === 'number') parts.push(`${formatCost(row.costPerHour)}/h`);
	const metrics = row.conversation.metrics;
	const share = budgetShare(metrics?.accumulated_cost, metrics?.max_budget_per_task);
	if (share !== null) parts.push(`${formatPercent(share)} of the ${formatCost(metrics?.max_budget_per_task)} budget`);
	// The time left is an age too: not said while the data's clock is not known.
	const left = now === 'unknown' ? null : sessionTimeLeft(row.sessionStart ?? null, now);
	if (left) parts.push(left.ms === 0 ? '12h cap reached' : `12h cap in ${left.atLeast ? '≥' : ''}${formatDuration(left.ms)}`);
	return parts;
}

/** `3 sub-agents (space folds)`: a parent's, when it is one. */
function subAgentNote(node: TreeNode | undefined): string | null {
	return node && node.children > 0 ? `${node.children} sub-agent${node.children === 1 ? '' : 's'} (space ${node.collapsed ? 'shows' : 'folds'})` : null;
}

/** `sub-agent of "Refactor billing"` (or of an id, when its parent is not listed); null for a top-level one. */
function parentNote(conversation: ConversationRow['conversation'], parent: ConversationRow | undefined): string | null {
	const parentId = conversation.parent_conversation_id;
	if (!parentId) return null;
	const title = parent?.conversation.title;
	return title ? `sub-agent of "${sanitizeLine(title)}"` : `sub-agent of ${sanitizeLine(String(parentId)).slice(0, 8)} (not listed)`;
}

/** `goal 3/10 running: <objective>`, when its goal loop is known (its timeline was read). */
function goalNote(row: ConversationRow): string | null {
	if (!row.goal) return null;
	const objective = goalObjective(row.goal, 80);
	return `${goalWords(row.goal)}${objective ? `: ${objective}` : ''}`;
}
