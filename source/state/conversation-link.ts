import {normalizeId} from '../wire/ids.js';
import type {AppConversation} from '../wire/schemas/app.js';

/**
 * A conversation's page in the service's web UI: `{app server}/conversations/{id}` (the web UI's
 * route `conversations/:conversationId`, OpenHands frontend/src/routes.ts). Null for an unknown row.
 */
export function conversationLink(appBaseUrl: string, conversation: Pick<AppConversation, 'id'> | undefined): string | null {
	if (!conversation) return null;
	return `${appBaseUrl.replace(/\/+$/, '')}/conversations/${normalizeId(String(conversation.id))}`;
}
