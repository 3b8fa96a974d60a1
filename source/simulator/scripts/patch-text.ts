/**
 * Patch texts in the format the SDK's apply_patch tool reads (openhands-tools/openhands/tools/
 * apply_patch/core.py): `*** Begin Patch`, per file `*** Update File: <path>` with `@@` sections
 * of context (" "), removed ("-") and added ("+") lines, `*** Add File: <path>` with "+" lines,
 * `*** Delete File: <path>`, then `*** End Patch`. Paths are relative to the workspace root.
 */

export type FileChange = {type: 'add' | 'update' | 'delete'; old_content?: string; new_content?: string};

/** The patch that replaces `oldStr` with `newStr` in `before` (its first occurrence), with up to three lines of context. */
export function updatePatch(path: string, before: string, oldStr: string, newStr: string): string {
	const at = before.indexOf(oldStr);
	const head = at === -1 ? [] : before.slice(0, at).split('\n');
	// The line the change starts in may begin before oldStr: keep that prefix as part of the lines.
	const prefix = head.pop() ?? '';
	const tailStart = at === -1 ? -1 : at + oldStr.length;
	const restOfLine = tailStart === -1 ? '' : (before.slice(tailStart).split('\n')[0] ?? '');
	const context = head.slice(-3);
	const removed = `${prefix}${oldStr}${restOfLine}`.split('\n');
	const added = `${prefix}${newStr}${restOfLine}`.split('\n');
	const after = tailStart === -1 ? [] : before.slice(tailStart).split('\n').slice(1, 3);
	const lines = ['*** Begin Patch', `*** Update File: ${path}`, `@@ ${context[0] ?? ''}`.trimEnd()];
	for (const line of context.slice(1)) lines.push(` ${line}`);
	for (const line of removed) lines.push(`-${line}`);
	for (const line of added) lines.push(`+${line}`);
	for (const line of after) lines.push(` ${line}`);
	lines.push('*** End Patch');
	return lines.join('\n');
}

/** The patch that adds a new file. */
export function addPatch(path: string, content: string): string {
	const body = content.endsWith('\n') ? content.slice(0, -1) : content;
	return ['*** Begin Patch', `*** Add File: ${path}`, ...body.split('\n').map((line) => `+${line}`), '*** End Patch'].join('\n');
}

/** Several patches as one (the model sends one patch per call, touching several files). */
export function joinPatches(patches: readonly string[]): string {
	const bodies = patches.map((patch) => patch.split('\n').filter((line) => line !== '*** Begin Patch' && line !== '*** End Patch').join('\n'));
	return ['*** Begin Patch', ...bodies, '*** End Patch'].join('\n');
}
