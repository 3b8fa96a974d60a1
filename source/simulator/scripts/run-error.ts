import type {Classification} from '../event-factory.js';
import type {ScriptContext, Step} from './types.js';

/**
 * The step that ends a run in error: a ConversationErrorEvent with the SDK's classification
 * (openhands-sdk/openhands/sdk/event/error_classification.py) and an error id of its own, and the
 * status `error`.
 */
export function runErrorStep(context: ScriptContext, code: string, detail: string, classification: Omit<Classification, 'error_id'>): Step {
	return {
		events: [context.ev.conversationError(code, detail, {...classification, error_id: `err_${context.rng.hex(12)}`})],
		status: 'error',
	};
}
