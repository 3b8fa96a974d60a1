import type {AppConversation, Sandbox} from '../wire/schemas/app.js';
import {executionStatusStyle, sandboxStatusStyle, type StatusStyle} from '../format/status-style.js';

/**
 * The status a conversation row shows: its execution status when the agent server answered,
 * otherwise its sandbox status (a paused or missing sandbox has no execution status).
 */
export function conversationStatus(conversation: AppConversation): StatusStyle {
	return conversation.execution_status ? executionStatusStyle(conversation.execution_status) : sandboxStatusStyle(conversation.sandbox_status);
}

export function sandboxStatus(sandbox: Sandbox): StatusStyle {
	return sandboxStatusStyle(sandbox.status);
}
