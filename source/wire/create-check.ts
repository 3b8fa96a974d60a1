import {ValidationError} from './errors.js';
import {describeIssues} from './schemas/common.js';
import {createRequestSchema, type CreateRequest} from './schemas/create-request.js';

/**
 * The create request is checked here, before anything is sent: a mistake (mixed-type
 * observability metadata, a malformed repository) becomes a clear local message instead of a
 * 422, or worse a trace the service accepts with bad metadata. The error has the same shape as
 * a server 422 (`detail` entries with `loc`), so callers handle both alike.
 */
export function checkCreateRequest(request: CreateRequest): CreateRequest {
	const result = createRequestSchema.safeParse(request);
	if (result.success) return result.data;
	const detail = result.error.issues.map((issue) => ({
		loc: ['body', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
		msg: issue.message,
		type: issue.code,
	}));
	throw new ValidationError(`the create request is not valid (nothing was sent): ${describeIssues(result.error)}`, detail);
}
