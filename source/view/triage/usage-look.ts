import type {AppConversation} from '../../wire/schemas/app.js';
import {contextFraction} from '../../state/usage-metrics.js';

export {contextFraction, totalTokens} from '../../state/usage-metrics.js';

/** When a conversation's cost and context use deserve a warning colour. */

/** Warning thresholds: yellow from the first, red from the second. */
export type UsageThresholds = {costUsd: readonly [number, number]; contextFraction: readonly [number, number]};
export const defaultUsageThresholds: UsageThresholds = {costUsd: [5, 20], contextFraction: [0.7, 0.9]};
let thresholds: UsageThresholds = defaultUsageThresholds;

/**
 * Set once at start-up, before the first frame (the config file's `dashboard` section): rows
 * are memoised, so a change later would show only on rows that change for another reason.
 */
export function setUsageThresholds(next: Partial<UsageThresholds>): void {
	thresholds = {...defaultUsageThresholds, ...next};
}

function level(value: number | null | undefined, thresholds: readonly [number, number]): 0 | 1 | 2 {
	if (typeof value !== 'number') return 0;
	return value >= thresholds[1] ? 2 : value >= thresholds[0] ? 1 : 0;
}

/** The colour of the cost/context cells: the worse of the two, or none. */
export function usageColor(conversation: AppConversation): string | undefined {
	const worst = Math.max(level(conversation.metrics?.accumulated_cost, thresholds.costUsd), level(contextFraction(conversation), thresholds.contextFraction));
	return worst === 2 ? 'red' : worst === 1 ? 'yellow' : undefined;
}
