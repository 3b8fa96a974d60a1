import {codingTasks} from './corpus/coding-tasks.js';
import {codingScript} from './scripts/coding.js';
import {condensingScript, condensingTemplates} from './scripts/condensing.js';
import {confirmationScript, confirmationTemplates} from './scripts/confirmation.js';
import {agentErrorScript, agentErrorTemplates, crashScript, crashTemplates, stuckScript, stuckTemplates} from './scripts/failures.js';
import {hookBlockedScript, hookBlockedTemplates} from './scripts/hook-blocked.js';
import {legacyScript, legacyTemplates} from './scripts/legacy.js';
import {longRunnerScript, longRunnerTemplates} from './scripts/long-runner.js';
import type {ScenarioTemplate} from './scripts/opening.js';
import {quietScript, quietTemplates} from './scripts/quiet.js';
import {
	authScript,
	authTemplates,
	quotaScript,
	quotaTemplates,
	rateLimitScript,
	rateLimitTemplates,
	spenderScript,
	spenderTemplates,
} from './scripts/triage-cases.js';
import type {Script, ScriptContext} from './scripts/types.js';
import {scenarioNames, type ScenarioName} from './world-types.js';

export type ScenarioDefinition = {
	templates: readonly ScenarioTemplate[];
	script: (context: ScriptContext) => Script;
	/** How far a seeded conversation of this kind has got when the simulator starts with it live. */
	livePlan: 'checkpoint' | 'complete';
	/** Whether it can be run to the end at all (quiet and long-runner never end). */
	ends: boolean;
};

export const scenarios: Record<ScenarioName, ScenarioDefinition> = {
	coding: {templates: codingTasks, script: codingScript, livePlan: 'checkpoint', ends: true},
	confirmation: {templates: confirmationTemplates, script: confirmationScript, livePlan: 'complete', ends: true},
	'agent-error': {templates: agentErrorTemplates, script: agentErrorScript, livePlan: 'checkpoint', ends: true},
	crash: {templates: crashTemplates, script: crashScript, livePlan: 'complete', ends: true},
	stuck: {templates: stuckTemplates, script: stuckScript, livePlan: 'complete', ends: true},
	condensing: {templates: condensingTemplates, script: condensingScript, livePlan: 'checkpoint', ends: true},
	'hook-blocked': {templates: hookBlockedTemplates, script: hookBlockedScript, livePlan: 'checkpoint', ends: true},
	quiet: {templates: quietTemplates, script: quietScript, livePlan: 'checkpoint', ends: false},
	'long-runner': {templates: longRunnerTemplates, script: longRunnerScript, livePlan: 'checkpoint', ends: false},
	legacy: {templates: legacyTemplates, script: legacyScript, livePlan: 'complete', ends: true},
	'rate-limit': {templates: rateLimitTemplates, script: rateLimitScript, livePlan: 'complete', ends: true},
	quota: {templates: quotaTemplates, script: quotaScript, livePlan: 'complete', ends: true},
	auth: {templates: authTemplates, script: authScript, livePlan: 'complete', ends: true},
	spender: {templates: spenderTemplates, script: spenderScript, livePlan: 'checkpoint', ends: false},
};

/**
 * A conversation started through the API runs `coding` unless its first message names another
 * scenario (`scenario:stuck`), so tests and demos can start any behaviour on demand.
 */
export function scenarioFromMessage(text: string | null): ScenarioName {
	const named = /\bscenario:([a-z-]+)/i.exec(text ?? '')?.[1]?.toLowerCase();
	return (scenarioNames as readonly string[]).includes(named ?? '') ? (named as ScenarioName) : 'coding';
}
