import {z} from 'zod';

/**
 * The V1 create request. Validated before sending so a mistake is a clear local message, not a
 * 422 from the server (or worse, a trace with bad metadata that the service accepts silently).
 */

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const observabilityRule = 'must be a scalar or an array of only strings, only numbers or only booleans';

/** A scalar, or an array whose items are all strings, all numbers or all booleans. */
export const observabilityValueSchema = z
	// The union's own message: zod's default for an object or null here is a bare "Invalid input".
	.union([scalar, z.array(z.unknown())], {error: observabilityRule})
	.superRefine((value, ctx) => {
		if (!Array.isArray(value)) return;
		const types = new Set(value.map((item) => (item === null ? 'null' : typeof item)));
		const [only] = [...types];
		const homogeneous = types.size <= 1 && (only === undefined || only === 'string' || only === 'number' || only === 'boolean');
		if (!homogeneous) ctx.addIssue({code: 'custom', message: observabilityRule});
	});

export const pluginSpecSchema = z.object({
	source: z.string().min(1, 'plugin source is empty'),
	ref: z.string().min(1).optional(),
	repo_path: z.string().min(1).optional(),
	parameters: z.record(z.string(), z.unknown()).optional(),
});
export type PluginSpec = z.infer<typeof pluginSpecSchema>;

export const textContentSchema = z.object({type: z.literal('text'), text: z.string()});

export const createRequestSchema = z.object({
	initial_message: z
		.object({
			role: z.literal('user').optional(),
			content: z.array(textContentSchema).min(1, 'the initial message has no content'),
			run: z.boolean().optional(),
		})
		.optional(),
	selected_repository: z
		.string()
		.regex(/^[\w.-]+\/[\w.-]+$/, 'repository must look like owner/name')
		.optional(),
	selected_branch: z.string().min(1).optional(),
	title: z.string().min(1).max(200).optional(),
	sandbox_id: z.string().optional(),
	observability_span_name: z.string().min(1).optional(),
	observability_tags: z.array(z.string()).optional(),
	observability_metadata: z.record(z.string(), observabilityValueSchema).optional(),
	plugins: z.array(pluginSpecSchema).optional(),
});
export type CreateRequest = z.infer<typeof createRequestSchema>;

export function createRequestFor(options: {
	message: string;
	repository?: string | undefined;
	plugins?: PluginSpec[] | undefined;
}): CreateRequest {
	return {
		initial_message: {role: 'user', content: [{type: 'text', text: options.message}], run: true},
		...(options.repository ? {selected_repository: options.repository} : {}),
		...(options.plugins?.length ? {plugins: options.plugins} : {}),
	};
}

/**
 * `SOURCE[@REF][:PATH]`, the `--plugin` flag form. Sources may carry their own scheme
 * (`github:owner/repo`, `https://host/o/r.git`, `git@host:o/r.git`), which is kept whole; after
 * it, the first `@` starts the ref and the first `:` the path inside the repository.
 */
export function parsePluginFlag(flag: string): PluginSpec {
	const text = flag.trim();
	const scheme = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/]*|git@[^:]+:|[a-z]+:(?!\/\/))/i.exec(text)?.[0] ?? '';
	const rest = text.slice(scheme.length);
	const match = /^([^@:]+)(?:@([^:]+))?(?::(.+))?$/.exec(rest);
	if (!match?.[1]) throw new Error(`cannot read plugin "${flag}": expected SOURCE[@REF][:PATH]`);
	return pluginSpecSchema.parse({
		source: scheme + match[1],
		...(match[2] ? {ref: match[2]} : {}),
		...(match[3] ? {repo_path: match[3]} : {}),
	});
}
