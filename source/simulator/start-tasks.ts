import {isUuidLike, normalizeId} from '../wire/ids.js';
import {startTaskStatuses} from '../wire/statuses.js';
import {scenarioFromMessage, scenarios} from './agent-scripts.js';
import {startAgent} from './agent-runtime.js';
import {deleteSandbox, enforceCap, markRunning} from './sandbox-lifecycle.js';
import type {SimConversation, SimSandbox, SimStartTask, StartTaskStatus} from './world-types.js';
import type {World} from './world.js';

/**
 * Start tasks walk through the real phases (docs/service-behaviour.md §1.1, newer than the seed's list),
 * one every `startTaskPhaseMs`. Markers in the first message steer the outcome for tests:
 * FAIL_START ends in ERROR, TRUNCATE_START makes stream-start cut its array short.
 */

/** The protocol's phases in their real order, up to READY (ERROR is where a failed one ends instead). */
const phases: readonly StartTaskStatus[] = startTaskStatuses.filter((status) => status !== 'ERROR');

export const defaultModel = 'litellm_proxy/claude-sonnet-4-5-20250929';

export function initialMessageText(request: Record<string, unknown>): string | null {
	const message = request.initial_message as {content?: unknown} | null | undefined;
	if (!message || !Array.isArray(message.content)) return null;
	const text = message.content
		.map((part) => (part && typeof part === 'object' && typeof (part as {text?: unknown}).text === 'string' ? (part as {text: string}).text : ''))
		.filter(Boolean)
		.join('\n');
	return text === '' ? null : text;
}

function maskSecrets(request: Record<string, unknown>): Record<string, unknown> {
	const secrets = request.secrets;
	if (!secrets || typeof secrets !== 'object') return {...request};
	return {...request, secrets: Object.fromEntries(Object.keys(secrets).map((key) => [key, '**********']))};
}

function update(world: World, task: SimStartTask, status: StartTaskStatus, patch: Partial<SimStartTask> = {}): void {
	Object.assign(task, patch, {status, updatedAt: world.now()});
	for (const listener of [...task.listeners]) listener(task);
}

export function createStartTask(world: World, request: Record<string, unknown>): SimStartTask {
	const text = initialMessageText(request) ?? '';
	const now = world.now();
	const task: SimStartTask = {
		id: world.ids.uuidHex(),
		createdByUserId: world.userId,
		status: 'WORKING',
		detail: null,
		appConversationId: null,
		sandboxId: null,
		agentServerUrl: null,
		request: maskSecrets(request),
		createdAt: now,
		updatedAt: now,
		outcome: text.includes('TRUNCATE_START') ? 'truncate' : text.includes('FAIL_START') ? 'fail' : 'ready',
		listeners: new Set(),
	};
	world.addStartTask(task);
	world.timers.after(world.options.startTaskPhaseMs, () => {
		if (task.outcome === 'truncate') {
			update(world, task, 'ERROR', {detail: 'Start aborted before the first phase completed (TRUNCATE_START).'});
			return;
		}
		advance(world, task, request);
	});
	return task;
}

function advance(world: World, task: SimStartTask, request: Record<string, unknown>): void {
	const next = phases[phases.indexOf(task.status) + 1];
	if (!next) return;
	switch (next) {
		case 'WAITING_FOR_SANDBOX': {
			const sandbox = claimSandbox(world, request);
			update(world, task, next, {sandboxId: sandbox.id});
			break;
		}
		case 'PREPARING_REPOSITORY': {
			if (task.outcome === 'fail') {
				const repository = typeof request.selected_repository === 'string' ? request.selected_repository : 'the repository';
				const sandbox = task.sandboxId ? world.findSandbox(task.sandboxId) : undefined;
				if (sandbox) deleteSandbox(world, sandbox);
				update(world, task, 'ERROR', {
					detail: `Failed to prepare ${repository}: git clone exited with status 128 (remote: Repository not found). FAIL_START requested.`,
				});
				return;
			}
			update(world, task, next);
			break;
		}
		case 'STARTING_CONVERSATION': {
			const sandbox = world.findSandbox(task.sandboxId ?? '');
			if (!sandbox || sandbox.status === 'MISSING') {
				update(world, task, 'ERROR', {detail: 'The sandbox disappeared while the conversation was starting.'});
				return;
			}
			markRunning(world, sandbox);
			update(world, task, next, {agentServerUrl: `${world.baseUrl}/runtime/${sandbox.number}`});
			break;
		}
		case 'READY': {
			const sandbox = world.findSandbox(task.sandboxId ?? '');
			if (!sandbox || sandbox.status !== 'RUNNING') {
				update(world, task, 'ERROR', {detail: 'The sandbox was paused before the conversation could start.'});
				return;
			}
			const conversation = createConversation(world, request, sandbox);
			update(world, task, next, {appConversationId: conversation.id});
			return;
		}
		default:
			update(world, task, next);
	}
	world.timers.after(world.options.startTaskPhaseMs, () => advance(world, task, request));
}

/** An existing sandbox named in the request, or a new one (STARTING until the conversation starts). */
function claimSandbox(world: World, request: Record<string, unknown>): SimSandbox {
	const named = typeof request.sandbox_id === 'string' ? world.findSandbox(request.sandbox_id) : undefined;
	if (named && named.status !== 'MISSING' && named.status !== 'ERROR') {
		if (named.status !== 'RUNNING') {
			enforceCap(world, named);
			world.timers.cancel(named.transition);
			named.transition = undefined;
			named.status = 'STARTING';
		}
		return named;
	}
	enforceCap(world, null);
	return world.addSandbox({specId: world.specs[0]!.id, status: 'STARTING', createdAt: world.now()});
}

function stringOr(value: unknown, fallback: string | null): string | null {
	return typeof value === 'string' && value !== '' ? value : fallback;
}

/** The conversation a create request (V1 start task or V0 call) produces; its agent starts at once. */
export function createConversation(world: World, request: Record<string, unknown>, sandbox: SimSandbox): SimConversation {
	const text = initialMessageText(request);
	const scenario = scenarioFromMessage(text);
	const requestedId = typeof request.conversation_id === 'string' && isUuidLike(request.conversation_id) ? normalizeId(request.conversation_id) : null;
	const id = requestedId && !world.findConversation(requestedId) ? requestedId : world.ids.uuidHex();
	const repository = stringOr(request.selected_repository, null);
	const now = world.now();
	const flat = text?.replace(/\s+/g, ' ').trim() ?? '';
	// A sub-conversation names its parent (a planning agent, a sub-agent); an unknown parent is ignored.
	const parent = typeof request.parent_conversation_id === 'string' ? world.findConversation(request.parent_conversation_id) : undefined;
	const conversation: SimConversation = {
		id,
		parentId: parent?.id ?? null,
		sandboxId: sandbox.id,
		createdByUserId: world.userId,
		// The real service titles a conversation `Conversation <5 hex>` until the agent names it.
		title: stringOr(request.title, null) ?? (flat ? (flat.length > 60 ? `${flat.slice(0, 59)}…` : flat) : `Conversation ${id.slice(0, 5)}`),
		repository,
		branch: stringOr(request.selected_branch, repository ? 'main' : null),
		gitProvider: stringOr(request.git_provider, repository ? 'github' : null),
		trigger: stringOr(request.trigger, 'openhands_api')!,
		prNumber: Array.isArray(request.pr_number) ? request.pr_number.filter((value): value is number => typeof value === 'number') : [],
		llmModel: stringOr(request.llm_model, defaultModel)!,
		publicShare: request.public === true,
		tags: {},
		createdAt: now,
		updatedAt: now,
		scenario,
		template: world.ids.int(0, scenarios[scenario].templates.length - 1),
		initialMessage: text,
		plan: null,
		executionStatus: 'idle',
		confirmationPolicy: scenario === 'confirmation' ? {kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true} : {kind: 'NeverConfirm'},
		agent: null,
		usage: null,
	};
	world.addConversation(conversation);
	const message = request.initial_message as {run?: unknown} | undefined;
	startAgent(world, conversation, message?.run !== false);
	return conversation;
}
