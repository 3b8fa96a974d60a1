import {type Dispatch, useEffect} from 'react';
import {strayNoticeText, type StrayOutput} from './stray-output.js';
import type {ViewAction} from './view-state.js';

/** What the dashboard is told about output taken off the terminal, and where it went. */
export type StrayOutputSource = {output: Pick<StrayOutput, 'latest' | 'subscribe'>; logPath: string};

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
