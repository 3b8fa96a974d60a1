import {scenarios} from './agent-scripts.js';
import type {Rng} from './rng.js';
import {seedFleet} from './seed-fleet.js';
import {seedHistory} from './seed-history.js';
import type {BuildPlan, ScenarioName, SimConversation, SimSandbox} from './world-types.js';
import type {WorldAccess} from './world-access.js';

/**
 * The initial population. The newest conversations are live, one per scenario, so a newcomer
 * sees every behaviour at once; after them come a few paused, one errored and one missing
 * sandbox, then a long tail of older, finished work. Only cheap fields are set here: event
 * histories are built on first use, which keeps 10,000 conversations fast to start.
 */

const liveOrder: ScenarioName[] = ['coding', 'confirmation', 'long-runner', 'agent-error', 'stuck', 'condensing', 'hook-blocked', 'crash', 'quiet', 'legacy'];

/** With `sharedSandboxes`, these live conversations run in the sandbox of another live one. */
const sharedHost: Partial<Record<ScenarioName, ScenarioName>> = {quiet: 'coding', legacy: 'long-runner'};

/**
 * With `triageCases` (the demo's dashboard and `agent-tui simulator`), live conversations a fleet's
 * triage groups by cause follow the ones above: two retryable rate-limit errors, an exhausted
 * budget, a refused LLM key and a spender without progress. Each runs in the sandbox of the live
 * conversation named beside it (the first live one's when that is not live), so the running
 * sandboxes and the cap stay as they are.
 */
const triageCases: ReadonlyArray<[ScenarioName, ScenarioName]> = [
	['rate-limit', 'agent-error'],
	['rate-limit', 'stuck'],
	['quota', 'condensing'],
	['auth', 'hook-blocked'],
	['spender', 'crash'],
];

/** Older conversations: mostly ordinary coding runs, with every ending scenario now and then. */
const tailScenarios: ScenarioName[] = ['coding', 'coding', 'coding', 'coding', 'agent-error', 'crash', 'stuck', 'condensing', 'hook-blocked', 'legacy', 'confirmation'];

const models = [
	'litellm_proxy/claude-sonnet-4-5-20250929',
	'litellm_proxy/claude-sonnet-4-5-20250929',
	'litellm_proxy/claude-sonnet-4-5-20250929',
	'litellm_proxy/gpt-5-2025-08-07',
	'litellm_proxy/claude-opus-4-1-20250805',
	'litellm_proxy/qwen3-coder-480b-a35b-instruct',
];

type Layout = {scenario: ScenarioName; sandbox: SimSandbox['status']; plan: BuildPlan; host?: ScenarioName; template?: number};

/** Why the seeded ERROR sandbox failed, in the runtime's words (`status_detail`). */
export const errorSandboxDetail = 'ImagePullBackOff';
/** Why the seeded STARTING sandboxes (`startingSandboxes`) never start. */
export const startingSandboxDetail = '0/3 nodes are available: insufficient cpu';

function layoutFor(index: number, live: number, cases: number, starting: number, rng: Rng, loopingStuck = false): Layout {
	if (index < live) {
		const scenario = liveOrder[index]!;
		// Mid-loop: the stuck script's checkpoint comes after the third identical call, still running.
		return {scenario, sandbox: 'RUNNING', plan: {until: scenario === 'stuck' && loopingStuck ? 'checkpoint' : scenarios[scenario].livePlan}};
	}
	if (index < live + cases) {
		const [scenario, host] = triageCases[index - live]!;
		// The same scenario twice gets its next template, so the two rows read differently.
		const template = triageCases.slice(0, index - live).filter(([other]) => other === scenario).length;
		return {scenario, sandbox: 'RUNNING', plan: {until: scenarios[scenario].livePlan}, host, template};
	}
	// A sandbox that never leaves STARTING (a pod that is never scheduled), older than the running ones.
	if (index < live + cases + starting) return {scenario: 'coding', sandbox: 'STARTING', plan: {until: 'checkpoint'}};
	const rest = index - live - cases - starting;
	if (rest === 0) return {scenario: 'coding', sandbox: 'PAUSED', plan: {until: 'checkpoint'}};
	if (rest === 1) return {scenario: 'condensing', sandbox: 'PAUSED', plan: {until: 'complete'}};
	if (rest === 2) return {scenario: 'long-runner', sandbox: 'PAUSED', plan: {until: 'checkpoint', thenPause: true}};
	if (rest === 3) return {scenario: 'coding', sandbox: 'ERROR', plan: {until: 'checkpoint'}};
	if (rest === 4) return {scenario: 'legacy', sandbox: 'MISSING', plan: {until: 'complete'}};
	if (rest === 5) return {scenario: 'confirmation', sandbox: 'MISSING', plan: {until: 'complete', thenReject: 'Not now: the release branch is frozen until the 2.4.3 hotfix ships.'}};
	return {scenario: rng.pick(tailScenarios), sandbox: rng.chance(0.25) ? 'PAUSED' : 'MISSING', plan: {until: 'complete'}};
}

function seedSpecs(world: WorldAccess): void {
	const created = world.epoch - 40 * 24 * 3600_000;
	const baseEnv = {OPENVSCODE_SERVER_ROOT: '/openhands/.openvscode-server', LOG_JSON: 'true', OH_ENABLE_VNC: 'false'};
	world.specs.push(
		{
			id: 'ghcr.io/openhands/agent-server:1.4.1-python',
			command: ['--port', '8000'],
			createdAt: created,
			initialEnv: {...baseEnv, PYTHONUNBUFFERED: '1'},
			workingDir: '/workspace/project',
		},
		{
			id: 'ghcr.io/openhands/agent-server:1.4.1-nodejs',
			command: ['--port', '8000'],
			createdAt: created + 3600_000,
			initialEnv: {...baseEnv, NODE_OPTIONS: '--max-old-space-size=4096'},
			workingDir: '/workspace/project',
		},
		{
			id: 'ghcr.io/openhands/agent-server:1.4.1-cuda12',
			command: ['--port', '8000', '--gpus', 'all'],
			createdAt: created + 7200_000,
			initialEnv: {...baseEnv, NVIDIA_VISIBLE_DEVICES: 'all'},
			workingDir: '/workspace/project',
		},
	);
}

export function seedWorld(world: WorldAccess): void {
	seedSpecs(world);
	const rng = world.rng.fork('population');
	const count = Math.max(0, Math.floor(world.options.conversations));
	const live = Math.min(world.options.maxRunningSandboxes, liveOrder.length, count);
	const cases = world.options.triageCases ? Math.min(triageCases.length, count - live) : 0;
	const starting = Math.min(Math.max(0, Math.floor(world.options.startingSandboxes ?? 0)), count - live - cases);
	let createdAt = world.epoch - rng.int(3, 8) * 60_000;
	const liveSandboxes = new Map<ScenarioName, SimSandbox>();
	for (let index = 0; index < count; index++) {
		const layout = layoutFor(index, live, cases, starting, rng, world.options.loopingStuck);
		const definition = scenarios[layout.scenario];
		// The first live coding run uses the browser task and a Responses-API model, so the
		// demo shows browser calls and reasoning items (with ciphertext that must stay hidden).
		const template = layout.template ?? (index === 0 ? 1 : rng.int(0, definition.templates.length - 1));
		const chosen = definition.templates[template % definition.templates.length]!;
		const model = index === 0 ? 'litellm_proxy/gpt-5-2025-08-07' : rng.pick(models);
		const updatedAt = updatedAtFor(world, layout, createdAt, rng);
		const host = world.options.sharedSandboxes && index < live ? sharedHost[layout.scenario] : undefined;
		const caseHost = layout.host ? (liveSandboxes.get(layout.host) ?? liveSandboxes.values().next().value) : undefined;
		const sandbox =
			caseHost ||
			(host && liveSandboxes.get(host)) ||
			world.addSandbox({
				specId: chosen.repository.includes('storefront') || chosen.repository.includes('notifications') ? world.specs[1]!.id : world.specs[0]!.id,
				status: layout.sandbox,
				statusDetail: layout.sandbox === 'ERROR' ? errorSandboxDetail : layout.sandbox === 'STARTING' ? startingSandboxDetail : null,
				createdAt: createdAt - rng.int(5, 40) * 1000,
			});
		if (index < live) liveSandboxes.set(layout.scenario, sandbox);
		const trigger = rng.pick(['gui', 'gui', 'gui', 'gui', 'openhands_api', 'resolver', 'slack']);
		// The quiet live run was started without a repository: its Changes view has no git
		// repository to show (/workspace/project is not one).
		const repository = layout.scenario === 'quiet' && index < live ? null : chosen.repository;
		const conversation: SimConversation = {
			id: world.ids.uuidHex(),
			parentId: null,
			sandboxId: sandbox.id,
			createdByUserId: world.userId,
			title: chosen.title,
			repository,
			branch: repository ? chosen.branch : null,
			gitProvider: rng.chance(0.9) && repository ? 'github' : repository ? 'gitlab' : null,
			trigger,
			prNumber: trigger === 'resolver' ? [rng.int(20, 900)] : [],
			llmModel: model,
			publicShare: false,
			tags: trigger === 'resolver' ? {resolver: 'github'} : {},
			createdAt,
			updatedAt,
			scenario: layout.scenario,
			template,
			initialMessage: null,
			plan: layout.plan,
			executionStatus: 'idle',
			confirmationPolicy:
				layout.scenario === 'confirmation' ? {kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true} : {kind: 'NeverConfirm'},
			agent: null,
			usage: null,
		};
		world.addConversation(conversation);
		createdAt -= (index < 30 ? rng.int(8, 45) : rng.int(5, 240)) * 60_000;
	}
	if (world.options.historyDays) seedHistory(world, world.options.historyDays);
	if (world.options.fleetShapes) seedFleet(world);
}

function updatedAtFor(world: WorldAccess, layout: Layout, createdAt: number, rng: Rng): number {
	if (layout.sandbox === 'RUNNING') {
		// A quiet agent has said nothing for a while: exactly what a triage view should flag.
		const ago = layout.scenario === 'quiet' ? rng.int(20, 35) * 60_000 : rng.int(5, 90) * 1000;
		return Math.max(createdAt + 60_000, world.epoch - ago);
	}
	const ended = Math.min(createdAt + rng.int(3, 50) * 60_000, world.epoch - 60_000);
	// A sandbox that never starts was last written as it was asked for.
	return layout.sandbox === 'STARTING' ? Math.min(ended, createdAt + 60_000) : ended;
}
