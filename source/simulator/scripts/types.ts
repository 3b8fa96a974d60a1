import type {EventDraft, EventFactory} from '../event-factory.js';
import type {Rng} from '../rng.js';

/**
 * A scripted agent is a generator of steps; each `step()` of the simulator pulls one. Generators
 * keep the script's place for free (between an action and its observation, in a loop), and the
 * text is produced when the step is pulled, so switches such as hostile text apply to live steps.
 */

export type PendingAction = {action: EventDraft; observation: EventDraft};

export type Step = {
	events: EventDraft[];
	/** This step made one model call (metrics grow, stats are published now and then). */
	llm?: {responseId: string};
	/** The execution status after the events. */
	status?: string;
	/** Actions the agent wants to run but that wait for the user's confirmation. */
	pending?: PendingAction[];
	/** A seeded conversation that is live at start has run its pre-history up to here. */
	checkpoint?: boolean;
};

export type Script = Generator<Step, void, undefined>;

export type ScriptContext = {
	rng: Rng;
	ev: EventFactory;
	model: string;
	title: string;
	repository: string | null;
	branch: string | null;
	workdir: string;
	template: number;
	/** The user's own first message, for conversations created through the API. */
	initialMessage: string | null;
	/** Whether the hostile-text fault is on right now. */
	hostile(): boolean;
	/** The conversation's persisted events so far (a condensation forgets real ids). */
	logEvents(): ReadonlyArray<{id: string; kind: string}>;
};
