import {currentTools, repositoryContext, systemPromptText} from '../corpus/tools.js';
import {agentText} from './tools.js';
import type {ScriptContext, Step} from './types.js';

/** What every scenario's template provides: enough for the conversation row and the first message. */
export type ScenarioTemplate = {title: string; repository: string; branch: string; request: string; skills?: string[]};

/**
 * The system prompt (emitted when the agent is created), the user's task, then the status
 * moves to running, in the order the real SDK produces them.
 */
export function openingStep(context: ScriptContext, request: string, skills: string[] = [], tools: unknown[] = currentTools): Step {
	return {
		events: [
			context.ev.systemPrompt(systemPromptText, tools, repositoryContext(context.repository, context.branch, context.workdir)),
			context.ev.userMessage(context.initialMessage ?? request, context.initialMessage ? [] : skills),
		],
		status: 'running',
	};
}

/** A step that only marks where a seeded, live-at-start conversation's history ends. */
export const checkpoint: Step = {events: [], checkpoint: true};

export function pickTemplate<T>(templates: readonly T[], index: number): T {
	return templates[index % templates.length]!;
}

/** The scenario's template (`context.template` picks it) and its opening step; the rest of the script reads the template. */
export function* openScenario<T extends ScenarioTemplate>(context: ScriptContext, templates: readonly T[]): Generator<Step, T, undefined> {
	const template = pickTemplate(templates, context.template);
	yield openingStep(context, template.request, template.skills);
	return template;
}

/** Text the agent writes about the user's own words (quoted, shortened). */
export function quote(context: ScriptContext, text: string, max = 80): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return agentText(context, flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
