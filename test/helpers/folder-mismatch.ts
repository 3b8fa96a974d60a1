import assert from 'node:assert/strict';
import type {Simulator} from '../../source/simulator/server.js';
import type {SimConversation} from '../../source/simulator/world-types.js';

/**
 * In a simulator started with `fleetShapes`: a running conversation with a repository, alone in
 * its sandbox, whose spec names /home/openhands/workspace while its agent works in
 * /workspace/project (the Changes view must ask the agent's folder, not the spec's).
 */
export function specFolderMismatch(sim: Simulator): SimConversation {
	const found = sim.world.conversationList().find((row) => {
		const sandbox = sim.world.findSandbox(row.sandboxId)!;
		return row.repository !== null && sandbox.status === 'RUNNING' && !sandbox.grouped && sandbox.agentWorkingDir === '/workspace/project' && sim.world.findSpec(sandbox.specId)?.workingDir === '/home/openhands/workspace';
	});
	assert.ok(found, 'a conversation whose spec names another folder than its agent works in');
	return found;
}
