/**
 * The problem of an action or observation of a kind this client has no schema for (a valid
 * one): the schemas (actions.ts, observations.ts) write it, and readers (wire/event-fields.ts,
 * format/event-details.ts) tell such an event from a broken one by it.
 */
export const unknownActionKind = 'unknown action kind';
export const unknownObservationKind = 'unknown observation kind';
