import {sanitizeLine} from '../../format/sanitize.js';
import type {DashboardSnapshot} from '../../state/dashboard-types.js';
import type {ResumeStepReport} from '../../state/fresh-plan.js';
import {shortId} from '../../state/sandbox-rows.js';
import {bulkItemLine, type BulkItemState} from './bulk-lines.js';

/**
 * One sandbox of a resume remedy run step by step (state/fresh-plan.ts), in words: what the
 * server was asked, what it then did (which sandboxes it paused, how many run against the cap),
 * a plan changed because the fresh list differed, or why it was not sent. Pure.
 */

const names = (keys: readonly string[]) => keys.map((key) => shortId(key)).join(', ');

export function resumeStepLine(
	snapshot: Pick<DashboardSnapshot, 'sandboxes' | 'conversations'>,
	key: string,
	report: ResumeStepReport | undefined,
	halted = false,
): BulkItemState {
	const name = shortId(key);
	if (!report) {
		if (halted) return {text: `– ${name}  not sent`, color: 'gray', settled: true};
		// Waiting its turn (or not asked yet): the sandbox as listed.
		return bulkItemLine(snapshot, 'resume', key, false);
	}
	switch (report.state) {
		case 'skipped': {
			return {text: `– ${name}  not sent: ${sanitizeLine(report.why)}`, color: 'gray', settled: true};
		}
		case 'sent': {
			const pauses = report.pauses.length === 0 ? 'nothing else is paused' : `the server pauses ${names(report.pauses)}`;
			const replanned =
				report.planned === null
					? ''
					: ` (the list read again differs from the question's: ${report.planned.length === 0 ? 'it expected no pause' : `it named ${names(report.planned)}`})`;
			return {text: `… ${name}  resuming; ${pauses}${replanned}`, color: 'yellow', settled: false};
		}
		case 'failed': {
			return {text: `✗ ${name}  failed: ${sanitizeLine(report.reason)}`, color: 'red', settled: true};
		}
		case 'done': {
			const paused = report.paused.length === 0 ? 'the server paused nothing else' : `the server paused ${names(report.paused)}`;
			const running = `${report.running} running${report.cap === null ? '' : ` (cap ${report.cap})`}`;
			return {text: `✓ ${name}  running; ${paused} · ${running}`, color: 'green', settled: true};
		}
		case 'stopped': {
			return {text: `✗ ${name}  ${sanitizeLine(report.why)}`, color: 'red', settled: true};
		}
	}
}
