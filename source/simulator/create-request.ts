import {isRecord, validationError, type ValidationIssue} from './http-util.js';

/**
 * Validates the V1 create request the way the service's models do (APP
 * app_conversation_models.py, docs/service-behaviour.md §1.1), so a client's mistakes get the same 422 they would in production.
 */

function isScalar(value: unknown): boolean {
	return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** A scalar, or an array whose items are all strings, all numbers or all booleans. */
function isObservabilityValue(value: unknown): boolean {
	if (isScalar(value)) return true;
	if (!Array.isArray(value)) return false;
	if (!value.every(isScalar)) return false;
	return new Set(value.map((item) => typeof item)).size <= 1;
}

function optionalString(issues: ValidationIssue[], value: unknown, loc: Array<string | number>): void {
	if (value !== undefined && value !== null && typeof value !== 'string') issues.push({type: 'string_type', loc, msg: 'Input should be a valid string', input: value});
}

export function validateCreateRequest(body: Record<string, unknown>): Record<string, unknown> {
	const issues: ValidationIssue[] = [];
	const message = body.initial_message;
	if (message !== undefined && message !== null) {
		if (!isRecord(message)) issues.push({type: 'model_type', loc: ['body', 'initial_message'], msg: 'Input should be a valid dictionary', input: message});
		else if (!Array.isArray(message.content)) {
			issues.push({type: message.content === undefined ? 'missing' : 'list_type', loc: ['body', 'initial_message', 'content'], msg: message.content === undefined ? 'Field required' : 'Input should be a valid list', input: message.content ?? null});
		}
	}
	for (const field of ['selected_repository', 'selected_branch', 'title', 'llm_model', 'sandbox_id', 'conversation_id', 'observability_span_name', 'git_provider', 'trigger']) {
		optionalString(issues, body[field], ['body', field]);
	}
	const plugins = body.plugins;
	if (plugins !== undefined && plugins !== null) {
		if (!Array.isArray(plugins)) issues.push({type: 'list_type', loc: ['body', 'plugins'], msg: 'Input should be a valid list', input: plugins});
		else {
			plugins.forEach((plugin, index) => {
				const loc = ['body', 'plugins', index];
				if (!isRecord(plugin)) {
					issues.push({type: 'model_type', loc, msg: 'Input should be a valid dictionary', input: plugin});
					return;
				}
				if (plugin.source === undefined || plugin.source === null) issues.push({type: 'missing', loc: [...loc, 'source'], msg: 'Field required', input: plugin});
				else if (typeof plugin.source !== 'string' || plugin.source.trim() === '') issues.push({type: 'string_type', loc: [...loc, 'source'], msg: 'Input should be a non-empty string', input: plugin.source});
				optionalString(issues, plugin.ref, [...loc, 'ref']);
				optionalString(issues, plugin.repo_path, [...loc, 'repo_path']);
				if (plugin.parameters !== undefined && plugin.parameters !== null && !isRecord(plugin.parameters)) {
					issues.push({type: 'dict_type', loc: [...loc, 'parameters'], msg: 'Input should be a valid dictionary', input: plugin.parameters});
				}
			});
		}
	}
	const tags = body.observability_tags;
	if (tags !== undefined && tags !== null && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
		issues.push({type: 'list_type', loc: ['body', 'observability_tags'], msg: 'Input should be a valid list of strings', input: tags});
	}
	const metadata = body.observability_metadata;
	if (metadata !== undefined && metadata !== null) {
		if (!isRecord(metadata)) issues.push({type: 'dict_type', loc: ['body', 'observability_metadata'], msg: 'Input should be a valid dictionary', input: metadata});
		else {
			for (const [key, value] of Object.entries(metadata)) {
				if (!isObservabilityValue(value)) {
					issues.push({
						type: 'value_error',
						loc: ['body', 'observability_metadata', key],
						msg: 'Value error, metadata values must be a string, number or boolean, or an array of only strings, only numbers or only booleans',
						input: value,
					});
				}
			}
		}
	}
	if (issues.length > 0) throw validationError(issues);
	return body;
}
