import {eventSummary} from '../../format/event-summary.js';
import {sanitizeLine} from '../../format/sanitize.js';
import type {LoggedEvent} from '../../wire/schemas/events.js';
import {pendingActions} from '../../state/timeline-query.js';
import {cellLeft, line} from '../cells.js';

/**
 * The pending actions of a conversation waiting for confirmation, one line each:
 * `HIGH    terminal  $ rm -rf build`, coloured by the security risk the agent server reported,
 * so what `a` would approve is on screen before it is pressed.
 */

export type PendingActionLine = {text: string; color: string | undefined};

const riskColors: Record<string, string> = {HIGH: 'red', MEDIUM: 'yellow', LOW: 'green'};

export function riskColor(risk: string): string | undefined {
	return riskColors[risk];
}

export function pendingActionLines(events: readonly LoggedEvent[], width: number): PendingActionLine[] {
	return pendingActions(events).map((action) => {
		const risk = sanitizeLine(action.security_risk);
		const tool = sanitizeLine(action.tool_name);
		const text = `${cellLeft(risk, 7)} ${cellLeft(tool, 14)} ${eventSummary(action).text}`;
		return {text: line(text, width), color: riskColor(action.security_risk)};
	});
}
