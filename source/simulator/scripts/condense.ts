import type {ScriptContext, Step} from './types.js';

/** Kinds the model sees, i.e. what a condenser can forget. */
const viewKinds = new Set(['ActionEvent', 'ObservationEvent', 'MessageEvent', 'AgentErrorEvent', 'UserRejectObservation']);

/**
 * A condensation cycle as the SDK's summarizing condenser produces it: the request, the
 * Condensation naming real earlier event ids (keeping the first user message and the most recent
 * events), and the summary the view shows in their place.
 */
export function* condense(context: ScriptContext, summary: string): Generator<Step, void, undefined> {
	yield {events: [context.ev.condensationRequest()]};
	const events = context.logEvents().filter((event) => viewKinds.has(event.kind));
	const keepFirst = 1;
	const keepLast = 6;
	const forgotten = events.slice(keepFirst, Math.max(keepFirst, events.length - keepLast)).map((event) => event.id);
	const condensation = context.ev.condensation(forgotten, summary, keepFirst + 1);
	yield {events: [condensation], llm: {responseId: String(condensation.llm_response_id)}};
	yield {events: [context.ev.condensationSummary(summary)]};
}
