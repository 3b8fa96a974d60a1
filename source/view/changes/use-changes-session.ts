import {useEffect, useState} from 'react';
import type {ChangesSession} from '../../state/changes-session.js';
import type {DashboardController} from '../../state/dashboard-types.js';

/**
 * The Changes view's session for the conversation it shows: opened through the controller when
 * the view opens (one request for the list), closed when it closes or shows another conversation.
 */
export function useChangesSession(controller: Pick<DashboardController, 'openChanges'>, conversationKey: string | null): ChangesSession | null {
	const [session, setSession] = useState<ChangesSession | null>(null);
	useEffect(() => {
		if (conversationKey === null || !controller.openChanges) {
			setSession(null);
			return;
		}
		const opened = controller.openChanges(conversationKey);
		setSession(opened);
		return () => opened.close();
	}, [controller, conversationKey]);
	return session;
}
