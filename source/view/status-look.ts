import type {Sandbox} from '../wire/schemas/app.js';
import {executionStatusStyle, sandboxStatusStyle, type StatusStyle} from '../format/status-style.js';
import type {ConversationRow} from '../state/dashboard-types.js';

/**
 * The two statuses of a conversation row, never mixed: the agent's (its execution status, or the
 * last one seen while its sandbox is stopped, as `was error`) and its sandbox's. A paused sandbox
 * is not a paused agent: they have different columns, words and symbols.
 */
export function agentStatusLook(row: Pick<ConversationRow, 'agentStatus' | 'agentStatusLastKnown'>): {text: string; color: string | undefined; style: StatusStyle} {
	if (row.agentStatus === null) return {text: '— none', color: 'gray', style: executionStatusStyle(null)};
	const style = executionStatusStyle(row.agentStatus);
	return {text: row.agentStatusLastKnown ? `${style.symbol} was ${style.word}` : style.label, color: style.color, style};
}

export function sandboxStatus(sandbox: Pick<Sandbox, 'status'>): StatusStyle {
	return sandboxStatusStyle(sandbox.status);
}
