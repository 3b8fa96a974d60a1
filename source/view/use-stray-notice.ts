import {type Dispatch, useCallback, useEffect} from 'react';
import {sanitizeLine} from '../format/sanitize.js';
import {publicMessage} from '../state/redact.js';
import {logPathText, strayNoticeText, type StrayOutput} from '../terminal/stray-output.js';
import type {ViewAction} from './view-state.js';

/** What the dashboard is told about output taken off the terminal, and where it went. */
export type StrayOutputSource = {output: Pick<StrayOutput, 'latest' | 'subscribe'> & Partial<Pick<StrayOutput, 'logError'>>; logPath: string};

/** Each capture (a Node warning, a library's stderr line) becomes a warning on the notice line. */
export function useStrayNotice(source: StrayOutputSource | undefined, dispatch: Dispatch<ViewAction>): void {
	useEffect(() => {
		if (!source) return undefined;
		const show = () => {
			const latest = source.output.latest();
			if (latest) dispatch({type: 'notice', text: strayNoticeText(latest, source.logPath), at: latest.at, level: 'warn'});
		};
		show();
		return source.output.subscribe(show);
	}, [source, dispatch]);
}

/**
 * What to do with an exception a key threw (view/use-key-dispatch.ts catches it): its stack goes
 * to the debug log, the notice line says what happened and where the stack is, and the dashboard
 * carries on with the next key.
 */
export function useUnexpectedErrorReport(source: StrayOutputSource | undefined, dispatch: Dispatch<ViewAction>): (error: unknown) => void {
	return useCallback(
		(error: unknown) => {
			source?.output.logError?.('unexpected error', error);
			const where = source?.output.logError ? `; its stack is in ${logPathText(source.logPath)}` : '';
			dispatch({type: 'notice', level: 'error', text: `Unexpected error: ${sanitizeLine(publicMessage(error, [], 120))}${where}`, at: Date.now()});
		},
		[source, dispatch],
	);
}
