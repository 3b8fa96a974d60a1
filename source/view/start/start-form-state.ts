import {findLaunchLink, parseLaunchLink} from '../../wire/launch-link.js';
import {createRequestFor, createRequestSchema, type PluginSpec, pluginSpecSchema} from '../../wire/schemas/create-request.js';

/**
 * The start form as a pure reducer: its fields, the plugin entries, which field has the cursor,
 * what a pasted launch link decoded to, and the trust step. Plugins from a link may run code in
 * the sandbox with the conversation's secrets, so a form filled from a link cannot be sent
 * without the user typing `trust` after reviewing them.
 */

export type PluginDraft = {
	source: string;
	ref: string;
	repo_path: string;
	/** Only from launch links (there is no field for them); shown for review, sent as given. */
	parameters?: Record<string, unknown>;
};

export type PluginPart = 'source' | 'ref' | 'repo_path';

/** A focus stop: a text field or a button. */
export type Stop =
	| {kind: 'message'}
	| {kind: 'repository'}
	| {kind: 'link'}
	| {kind: 'plugin'; index: number; part: PluginPart}
	| {kind: 'remove'; index: number}
	| {kind: 'add'}
	| {kind: 'submit'};

export type StartRequest = {message: string; repository?: string; plugins?: PluginSpec[]};

export type StartFormState = {
	message: string;
	repository: string;
	link: string;
	plugins: PluginDraft[];
	focus: number;
	/** Set when the plugins came from a launch link: sending needs the trust step. */
	launch: {origin: string | null; count: number} | null;
	/** Why the last pasted link could not be used. */
	linkError: string | null;
	/** What stops the form from being sent, shown until the next edit. */
	errors: string[];
	stage: 'edit' | 'trust' | 'sent';
	trustInput: string;
	/** The request handed to the controller (stage `sent`). */
	request: StartRequest | null;
};

export type StartFormAction =
	| {type: 'set'; field: 'message' | 'repository' | 'link'; value: string}
	| {type: 'set-plugin'; index: number; part: PluginPart; value: string}
	| {type: 'focus'; delta: 1 | -1}
	| {type: 'press'}
	| {type: 'set-trust'; value: string}
	| {type: 'back'}
	| {type: 'edit-again'};

export const trustWord = 'trust';

/** Field lengths: a person types or pastes these; anything longer is a mistake (or an attack on the renderer). */
export const fieldLimits = {message: 20_000, repository: 200, link: 64 * 1024, plugin: 500} as const;

export const initialStartForm: StartFormState = {
	message: '',
	repository: '',
	link: '',
	plugins: [],
	focus: 0,
	launch: null,
	linkError: null,
	errors: [],
	stage: 'edit',
	trustInput: '',
	request: null,
};

export function stops(state: Pick<StartFormState, 'plugins'>): Stop[] {
	const list: Stop[] = [{kind: 'message'}, {kind: 'repository'}, {kind: 'link'}];
	state.plugins.forEach((_, index) => {
		list.push({kind: 'plugin', index, part: 'source'}, {kind: 'plugin', index, part: 'ref'}, {kind: 'plugin', index, part: 'repo_path'}, {kind: 'remove', index});
	});
	list.push({kind: 'add'}, {kind: 'submit'});
	return list;
}

export function focusedStop(state: StartFormState): Stop {
	const list = stops(state);
	return list[Math.min(state.focus, list.length - 1)] ?? {kind: 'message'};
}

function stopIndex(state: Pick<StartFormState, 'plugins'>, match: (stop: Stop) => boolean): number {
	return Math.max(0, stops(state).findIndex(match));
}

function draftOf(spec: PluginSpec): PluginDraft {
	return {source: spec.source, ref: spec.ref ?? '', repo_path: spec.repo_path ?? '', ...(spec.parameters ? {parameters: spec.parameters} : {})};
}

/** Removes the link (and the space around it) from a field's text. */
function withoutLink(text: string, url: string): string {
	return text.replace(url, ' ').replaceAll(/\s{2,}/g, ' ').trim();
}

function setField(state: StartFormState, field: 'message' | 'repository' | 'link', raw: string): StartFormState {
	const value = raw.slice(0, fieldLimits[field]);
	const next: StartFormState = {...state, [field]: value, errors: []};
	const url = findLaunchLink(value);
	if (!url) return field === 'link' ? {...next, linkError: null} : next;
	const parsed = parseLaunchLink(value);
	if (!parsed.ok) {
		// A paste can arrive in pieces: keep the text, say what is wrong, and decode again on the next piece.
		return {...next, linkError: parsed.error};
	}

	const {link} = parsed;
	const rest = withoutLink(value, url);
	const filled: StartFormState = {
		...next,
		[field]: field === 'link' ? '' : rest,
		plugins: link.plugins.map(draftOf),
		launch: {origin: link.origin, count: link.plugins.length},
		linkError: null,
	};
	// The link's message fills an empty message field (or replaces the link pasted into it).
	if (link.message && !filled.message.trim()) filled.message = link.message.slice(0, fieldLimits.message);
	// Land on the first plugin so the review starts where the link's content is.
	filled.focus = stopIndex(filled, (stop) => stop.kind === 'plugin');
	return filled;
}

/** Checks the form and builds the request, reusing the wire schemas' own rules and messages. */
export function validateStartForm(state: StartFormState): {ok: true; request: StartRequest} | {ok: false; errors: string[]} {
	const errors: string[] = [];
	const message = state.message.trim();
	if (!message) errors.push('Write a message for the agent.');
	if (state.linkError) errors.push(`Launch link: ${state.linkError}`);
	const plugins: PluginSpec[] = [];
	state.plugins.forEach((draft, index) => {
		const source = draft.source.trim();
		const ref = draft.ref.trim();
		const repoPath = draft.repo_path.trim();
		if (!source && !ref && !repoPath && !draft.parameters) return;
		const result = pluginSpecSchema.safeParse({
			source,
			...(ref ? {ref} : {}),
			...(repoPath ? {repo_path: repoPath} : {}),
			...(draft.parameters ? {parameters: draft.parameters} : {}),
		});
		if (result.success) plugins.push(result.data);
		else errors.push(`Plugin ${index + 1}: ${result.error.issues[0]?.message ?? 'invalid'}`);
	});
	const repository = state.repository.trim();
	const checked = createRequestSchema.safeParse(createRequestFor({message: message || ' ', repository: repository || undefined}));
	if (!checked.success) for (const issue of checked.error.issues) errors.push(capitalise(issue.message));
	if (errors.length > 0) return {ok: false, errors};
	return {
		ok: true,
		request: {message, ...(repository ? {repository} : {}), ...(plugins.length > 0 ? {plugins} : {})},
	};
}

function capitalise(text: string): string {
	return text ? text[0]!.toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.') : text;
}

function press(state: StartFormState): StartFormState {
	const stop = focusedStop(state);
	const count = stops(state).length;
	switch (stop.kind) {
		case 'add': {
			const plugins = [...state.plugins, {source: '', ref: '', repo_path: ''}];
			return {...state, plugins, focus: stopIndex({plugins}, (item) => item.kind === 'plugin' && item.index === plugins.length - 1 && item.part === 'source')};
		}

		case 'remove': {
			const plugins = state.plugins.filter((_, index) => index !== stop.index);
			// Removing the last one from a link leaves nothing to trust.
			const launch = plugins.length === 0 ? null : state.launch;
			// The focus goes to the row that took its place, or to [+ add plugin] after the last one.
			const focus = stopIndex({plugins}, (item) => (stop.index < plugins.length ? item.kind === 'plugin' && item.index === stop.index : item.kind === 'add'));
			return {...state, plugins, launch, focus, errors: []};
		}

		case 'submit': {
			const result = validateStartForm(state);
			if (!result.ok) return {...state, errors: result.errors};
			if (state.launch && result.request.plugins) return {...state, stage: 'trust', trustInput: '', request: result.request, errors: []};
			return {...state, stage: 'sent', request: result.request, errors: []};
		}

		default: {
			// Enter in a text field moves on, like tab.
			return {...state, focus: Math.min(count - 1, state.focus + 1)};
		}
	}
}

export function startFormReducer(state: StartFormState, action: StartFormAction): StartFormState {
	switch (action.type) {
		case 'set': {
			return state.stage === 'edit' ? setField(state, action.field, action.value) : state;
		}

		case 'set-plugin': {
			if (state.stage !== 'edit') return state;
			const plugins = state.plugins.map((draft, index) =>
				index === action.index ? {...draft, [action.part]: action.value.slice(0, fieldLimits.plugin)} : draft,
			);
			return {...state, plugins, errors: []};
		}

		case 'focus': {
			if (state.stage !== 'edit') return state;
			const count = stops(state).length;
			return {...state, focus: (state.focus + action.delta + count) % count};
		}

		case 'press': {
			if (state.stage === 'edit') return press(state);
			if (state.stage === 'trust') {
				if (state.trustInput.trim().toLowerCase() !== trustWord) return {...state, errors: [`Type "${trustWord}" to start with these plugins, or esc to go back.`]};
				return {...state, stage: 'sent', errors: []};
			}

			return state;
		}

		case 'set-trust': {
			return state.stage === 'trust' ? {...state, trustInput: action.value.slice(0, 20), errors: []} : state;
		}

		case 'back': {
			return state.stage === 'trust' ? {...state, stage: 'edit', trustInput: '', request: null, errors: []} : state;
		}

		case 'edit-again': {
			return {...state, stage: 'edit', trustInput: '', request: null, errors: []};
		}
	}
}
