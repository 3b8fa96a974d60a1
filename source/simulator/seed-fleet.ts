import {specNamesAnotherFolder} from './workspace-layout.js';
import {scenarios} from './agent-scripts.js';
import type {BuildPlan, ScenarioName, SimConversation, SimSandbox} from './world-types.js';
import type {WorldAccess} from './world-access.js';
import {seedConversation} from './seed-conversation.js';

/**
 * The 2026 fleet's shapes, seeded on top of the usual population when `fleetShapes` is on (the
 * demo and `agent-tui simulator`), so what a person triaging a real account meets is all there:
 * - sub-agents: the live coding run has a planning agent (finished), a `task` sub-agent at work
 *   and one waiting for approval, all in its sandbox, which groups workspaces
 *   (`{working_dir}/{conversation hex}/{repo}`);
 * - a sandbox stuck STARTING with the runtime's reason (`status_detail`), one UNKNOWN (provider
 *   unavailable), and the ERROR one's `ImagePullBackOff` (always seeded);
 * - a hosted-style sandbox whose own `working_dir` is `/workspace`;
 * - a live run whose provider becomes unavailable a while into live mode (`providerOutage`).
 */

export const stuckStartingDetail = '0/6 nodes are available: insufficient kvm';
export const unknownDetail = 'runtime provider unavailable';
export const outageAfterMs = 40_000;

/** Titles of the seeded sub-agents; the one waiting for approval raises its parent. */
export const subAgentTitles = {
	plan: 'Plan: split the work into sub-tasks',
	worker: 'Sub-agent (task): write the missing unit tests',
	waiting: 'Sub-agent (task): clean the build output and push',
} as const;

export function seedFleet(world: WorldAccess): void {
	const parent = world.conversationList().find((row) => row.scenario === 'coding' && row.parentId === null && world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	if (parent) seedSubAgents(world, parent);
	const hosted = world.conversationList().find((row) => row.scenario === 'agent-error' && world.findSandbox(row.sandboxId)?.status === 'RUNNING');
	const hostedSandbox = hosted && world.findSandbox(hosted.sandboxId);
	// Another spec than the grouped sandbox's, with running sandboxes, names the SDK's default folder while its agents work in /workspace/project.
	const groupedSpec = parent ? world.findSandbox(parent.sandboxId)?.specId : undefined;
	const lying = world.specs.find((spec) => spec.id !== groupedSpec && world.sandboxList().some((sandbox) => sandbox.specId === spec.id && sandbox.status === 'RUNNING'));
	if (lying) specNamesAnotherFolder(world, lying.id, '/home/openhands/workspace', '/workspace/project');
	if (hostedSandbox) Object.assign(hostedSandbox, {workingDir: '/workspace', agentWorkingDir: null});
	const now = world.epoch;
	troubled(world, {title: 'Upgrade the image pipeline to Python 3.13', scenario: 'coding', status: 'STARTING', detail: stuckStartingDetail, createdAt: now - 95 * 60_000});
	troubled(world, {title: 'Nightly dependency audit', scenario: 'coding', status: 'UNKNOWN', detail: unknownDetail, createdAt: now - 100 * 60_000});
	// Runs now; its provider goes away in live mode (providerOutage), so a client sees it was running.
	troubled(world, {title: 'Reindex the search cluster', scenario: 'long-runner', status: 'RUNNING', detail: null, createdAt: now - 12 * 60_000, plan: {until: 'checkpoint'}});
}

/** The live long-runner whose provider goes away (the last seeded `Reindex` run). */
export function providerOutage(world: WorldAccess): SimSandbox | undefined {
	const victim = world.conversationList().find((row) => row.title === 'Reindex the search cluster');
	const sandbox = victim && world.findSandbox(victim.sandboxId);
	if (sandbox?.status === 'RUNNING') world.setSandboxStatus(sandbox, 'UNKNOWN', unknownDetail);
	return sandbox;
}

function seedSubAgents(world: WorldAccess, parent: SimConversation): void {
	const sandbox = world.findSandbox(parent.sandboxId);
	if (sandbox) sandbox.grouped = true;
	const child = (title: string, scenario: ScenarioName, plan: BuildPlan, afterMs: number) => {
		const definition = scenarios[scenario];
		const createdAt = Math.min(parent.createdAt + afterMs, world.epoch - 5_000);
		world.addConversation({
			...parent,
			id: world.ids.uuidHex(),
			parentId: parent.id,
			title,
			scenario,
			template: world.ids.int(0, definition.templates.length - 1),
			trigger: 'openhands_api',
			tags: {},
			prNumber: [],
			createdAt,
			updatedAt: plan.until === 'complete' ? createdAt + 60_000 : Math.max(createdAt + 1000, world.epoch - 20_000),
			initialMessage: null,
			plan,
			executionStatus: 'idle',
			confirmationPolicy: scenario === 'confirmation' ? {kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true} : {kind: 'NeverConfirm'},
			agent: null,
			usage: null,
		});
	};
	child(subAgentTitles.plan, 'coding', {until: 'complete'}, 20_000);
	child(subAgentTitles.worker, 'coding', {until: 'checkpoint'}, 60_000);
	child(subAgentTitles.waiting, 'confirmation', {until: scenarios.confirmation.livePlan}, 90_000);
}

function troubled(
	world: WorldAccess,
	init: {title: string; scenario: ScenarioName; status: string; detail: string | null; createdAt: number; plan?: BuildPlan},
): SimConversation {
	const definition = scenarios[init.scenario];
	const template = world.ids.int(0, definition.templates.length - 1);
	const updatedAt = init.status === 'RUNNING' ? world.epoch - 15_000 : init.createdAt + 4 * 60_000;
	return seedConversation(world, {...init, template, statusDetail: init.detail, updatedAt, plan: init.plan ?? {until: 'checkpoint'}});
}
