import {scenarios} from './agent-scripts.js';
import type {BuildPlan, ScenarioName, SimConversation} from './world-types.js';
import type {WorldAccess} from './world-access.js';

export type SeededConversation = {
	scenario: ScenarioName;
	/** Index into the scenario's templates: the repository and branch come from it. */
	template: number;
	title: string;
	/** The sandbox's status and the reason given with it. */
	status: string;
	statusDetail: string | null;
	createdAt: number;
	updatedAt: number;
	plan: BuildPlan;
};

/**
 * A top-level conversation seeded into the world (the troubled fleet, a month of history) with a
 * sandbox of its own, created 20 s before it on the first spec: started from the GUI on the
 * template's GitHub repository, one model, no tags, idle, no agent or usage yet.
 */
export function seedConversation(world: WorldAccess, init: SeededConversation): SimConversation {
	const chosen = scenarios[init.scenario].templates[init.template]!;
	const sandbox = world.addSandbox({specId: world.specs[0]!.id, status: init.status, statusDetail: init.statusDetail, createdAt: init.createdAt - 20_000});
	return world.addConversation({
		id: world.ids.uuidHex(),
		parentId: null,
		sandboxId: sandbox.id,
		createdByUserId: world.userId,
		title: init.title,
		repository: chosen.repository,
		branch: chosen.branch,
		gitProvider: 'github',
		trigger: 'gui',
		prNumber: [],
		llmModel: 'litellm_proxy/claude-sonnet-4-5-20250929',
		publicShare: false,
		tags: {},
		createdAt: init.createdAt,
		updatedAt: init.updatedAt,
		scenario: init.scenario,
		template: init.template,
		initialMessage: null,
		plan: init.plan,
		executionStatus: 'idle',
		confirmationPolicy: {kind: 'NeverConfirm'},
		agent: null,
		usage: null,
	});
}
