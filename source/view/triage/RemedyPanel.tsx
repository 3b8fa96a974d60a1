import {useEffect, useEffectEvent, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import {wrapToWidth} from '../../format/wrap.js';
import type {DashboardController, DashboardSnapshot} from '../../state/dashboard-types.js';
import {shortId} from '../../state/sandbox-rows.js';
import {line} from '../cells.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import type {ResumeStepReport} from '../../state/fresh-plan.js';
import {bulkItemLine} from './bulk-lines.js';
import {resumeStepLine} from './resume-step-words.js';
import {ItemRows, StatusRow} from './panel-parts.js';
import {capWords, planResume, planRun, type RemedyPlan, runItemName} from '../../state/remedy-plan.js';

type Props = {
	remedy: 'run' | 'resume';
	/** The group, in words (`error · rate limit · retryable`). */
	title: string;
	/** The group's conversations when it was asked. */
	conversationKeys: readonly string[];
	snapshot: DashboardSnapshot;
	controller: Pick<DashboardController, 'continueAgent' | 'resumeSandbox' | 'freshSandboxes' | 'resumeInSteps'>;
	width: number;
	height: number;
	/** Closed: with what to say on the notice line. */
	onClose(notice: string | null): void;
};

type RunResult = {state: 'sending'} | {state: 'done'; text: string} | {state: 'failed'; reason: string};

/**
 * A group's remedy: what it acts on (each conversation or sandbox, and for resume which running
 * sandboxes the cap makes the service pause, in order), the count, then y/n; after y, each result
 * as it comes. The list is fixed when the panel opens: y acts on what is on screen, nothing that
 * joined the group since. Requests go one at a time (each is a different agent server, or a
 * resume the next one's cap plan depends on). Esc or n while they go stops it: the panel closes,
 * the ones not sent yet are not sent, and the notice says how many were.
 */
export function RemedyPanel(props: Props) {
	const {remedy, title, snapshot, width, height} = props;
	const makePlan = (fresh?: DashboardSnapshot['sandboxes']): RemedyPlan =>
		remedy === 'run' ? planRun(snapshot, props.conversationKeys) : planResume(fresh ? {...snapshot, sandboxes: fresh} : snapshot, props.conversationKeys);
	// A resume plan is made on the sandbox list read again now (state/fresh-plan.ts): the cap's
	// words name what the server would pause as it is, not as a list up to a minute old said.
	const readsFresh = remedy === 'resume' && props.controller.freshSandboxes !== undefined;
	// Planned once, when the sandbox list is there (a resume plan needs it; a run plan reads the sandbox status).
	const [plan, setPlan] = useState<RemedyPlan | null>(() => (snapshot.sandboxesListed && !readsFresh ? makePlan() : null));
	const [freshError, setFreshError] = useState<string | null>(null);
	const planLater = useEffectEvent((fresh?: DashboardSnapshot['sandboxes']) => setPlan(makePlan(fresh)));
	const listed = snapshot.sandboxesListed;
	useEffect(() => {
		if (readsFresh) return;
		if (listed && plan === null) planLater();
	}, [listed, plan, readsFresh]);
	const readFresh = useEffectEvent(() => props.controller.freshSandboxes?.());
	useEffect(() => {
		if (!readsFresh) return;
		let gone = false;
		readFresh()
			?.then((rows) => {
				if (!gone) planLater(rows);
			})
			.catch((error: unknown) => {
				if (!gone) setFreshError(error instanceof Error ? error.message : String(error));
			});
		return () => {
			gone = true;
		};
	}, [readsFresh]);
	const [steps, setSteps] = useState<ReadonlyMap<string, ResumeStepReport>>(new Map());
	const [halt, setHalt] = useState<string | null>(null);
	const [asked, setAsked] = useState(false);
	const [results, setResults] = useState<ReadonlyMap<string, RunResult>>(new Map());
	const [offset, setOffset] = useState(0);
	const targets = plan === null ? [] : plan.remedy === 'run' ? plan.conversationKeys : plan.sandboxKeys;
	const record = (key: string, result: RunResult) => setResults((current) => new Map(current).set(key, result));
	// Stopped (esc, n, or the panel gone): nothing more is sent. `sent` counts what went.
	const stopped = useRef(false);
	const sent = useRef(0);
	useEffect(
		() => () => {
			stopped.current = true;
		},
		[],
	);

	const start = async () => {
		if (!plan) return;
		if (plan.remedy === 'run') {
			for (const key of plan.conversationKeys) {
				if (stopped.current) return;
				sent.current++;
				record(key, {state: 'sending'});
				try {
					const answer = await props.controller.continueAgent?.(key);
					if (answer === undefined) throw new Error('this connection cannot run an agent');
					record(key, {state: 'done', text: answer === 'already-running' ? 'was already running' : 'running again'});
				} catch (error) {
					record(key, {state: 'failed', reason: error instanceof Error ? error.message : String(error)});
				}
			}
			return;
		}
		if (props.controller.resumeInSteps) {
			// One step at a time on fresh data: each resume waits until the server shows what it did.
			const planned = new Map(plan.plan.steps.map((step) => [step.sandboxKey, step.pauses] as const));
			await props.controller.resumeInSteps(
				plan.sandboxKeys,
				planned,
				(report) => {
					if (report.state === 'sent') sent.current++;
					if (report.state === 'stopped') setHalt(report.why);
					else setSteps((current) => new Map(current).set(report.key, report));
				},
				() => stopped.current,
			);
			return;
		}
		// The store tracks each resume on the sandbox's row (pending, then its status); one at a time,
		// in the plan's order, as the cap's words said.
		for (const key of plan.sandboxKeys) {
			if (stopped.current) return;
			sent.current++;
			await props.controller.resumeSandbox(key).catch(() => undefined);
		}
	};

	const runLines = plan?.remedy === 'run' ? plan.conversationKeys.map((key) => runLine(snapshot, key, results.get(key))) : [];
	const resumeLines = plan?.remedy === 'resume' ? plan.sandboxKeys.map((key) =>
					props.controller.resumeInSteps ? resumeStepLine(snapshot, key, steps.get(key), halt !== null) : bulkItemLine(snapshot, 'resume', key, asked),
				) : [];
	const items = plan?.remedy === 'run' ? runLines : resumeLines;
	const settled = items.filter((item) => item.settled).length;
	const failed = items.filter((item) => item.color === 'red').length;
	const done = asked && settled === items.length;

	const close = () => {
		if (!asked) return props.onClose('Cancelled: nothing was done.');
		if (done) return props.onClose(null);
		// Under way: what is not sent yet is not sent; the one in flight cannot be called back.
		stopped.current = true;
		const notSent = targets.length - sent.current;
		props.onClose(`Stopped: ${sent.current} of ${targets.length} sent${notSent > 0 ? `, ${notSent} not sent` : ''}.`);
	};
	useKeyHandlers('remedy', {
		confirmYes: () => {
			if (asked || plan === null) return;
			if (targets.length === 0) return close();
			setAsked(true);
			void start();
		},
		confirmNo: close,
		back: () => {
			// Enter closes only once done: a y typed twice must not read as "close".
			if (!asked || done) close();
		},
		up: () => setOffset((current) => Math.max(0, current - 1)),
		down: () => setOffset((current) => Math.min(Math.max(0, items.length - 1), current + 1)),
	});

	const lines: Array<{text: string; color?: string | undefined; bold?: boolean}> = [];
	if (plan === null) {
		lines.push({text: `${remedy === 'run' ? 'Run again' : 'Resume'}: ${title}`, bold: true}, {text: freshError ? `Could not read the sandbox list again: ${sanitizeLine(freshError)}. Nothing is planned on an old list; esc closes.` : readsFresh ? 'Reading the sandbox list again: the plan is made on what the server says now…' : 'Waiting for the sandbox list: the plan is made once it has arrived…'});
	} else if (plan.remedy === 'run') {
		const count = plan.conversationKeys.length;
		lines.push({
			text:
				count === 0
					? `Nothing to run again: ${title}`
					: asked
						? `Running ${count} conversation${count === 1 ? '' : 's'} again (${title})`
						: `Run ${count} conversation${count === 1 ? '' : 's'} again (${title})? [y/n]`,
			color: 'yellow',
			bold: true,
		});
		lines.push({text: 'POST run to each agent, one at a time: it picks up where it stopped; the sandboxes are not touched.'});
	} else {
		const count = plan.sandboxKeys.length;
		lines.push({
			text:
				count === 0
					? `Nothing to resume: ${title}`
					: `${asked ? 'Resuming' : 'Resume'} ${count} sandbox${count === 1 ? '' : 'es'} of ${plan.conversations} conversation${plan.conversations === 1 ? '' : 's'} (${title})${asked ? '' : '? [y/n]'}`,
			color: 'yellow',
			bold: true,
		});
		const cap = capWords(snapshot, plan.plan);
		lines.push({text: cap.text, color: plan.plan.paused.length > 0 ? 'yellow' : undefined});
		if (cap.warning) lines.push({text: cap.warning, color: 'red', bold: true});
		if (readsFresh && !asked) lines.push({text: 'Planned on the sandbox list read just now; y resumes one at a time, each after the server shows what the previous one did.', color: 'gray'});
		if (halt) lines.push({text: `Stopped: ${halt}.`, color: 'red', bold: true});
	}
	if (plan && plan.skipped.length > 0) {
		const reasons = [...new Set(plan.skipped.map((skip) => skip.why))].join('; ');
		lines.push({text: `${plan.skipped.length} skipped: ${sanitizeLine(reasons)}`, color: 'gray'});
	}
	// Wrapped, not cut: the question's lines are what y acts on (which sandboxes the cap pauses,
	// in order), and at 80 columns they are longer than a row.
	const rows = lines.flatMap((entry) => wrapToWidth(entry.text, width, Number.POSITIVE_INFINITY, {words: true}).map((text) => ({...entry, text})));
	const listHeight = Math.max(1, height - rows.length - 1);
	const status = asked
		? `${settled} of ${items.length} done · ${failed} failed · ${done ? 'enter/esc closes' : 'esc stops (what is not sent yet is not sent)'}`
		: items.length === 0
			? 'y/n/esc closes'
			: `y ${plan?.remedy === 'run' ? 'runs' : 'resumes'} all ${items.length} listed · n/esc cancels · ↑/↓ scroll`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{rows.map((entry, index) => (
				<Text key={index} color={entry.color} bold={entry.bold} wrap="truncate">
					{line(entry.text, width)}
				</Text>
			))}
			<ItemRows rows={items} item={(item, index) => ({key: targets[index], ...item})} offset={offset} height={listHeight} width={width} />
			<StatusRow text={status} width={width} />
		</Box>
	);
}

function runLine(snapshot: DashboardSnapshot, key: string, result: RunResult | undefined): {text: string; color: string | undefined; settled: boolean} {
	const name = runItemName(snapshot, key);
	if (!result) return {text: name, color: undefined, settled: false};
	if (result.state === 'sending') return {text: `… ${name}`, color: 'yellow', settled: false};
	if (result.state === 'failed') return {text: `✗ ${shortId(key)}  failed: ${truncateToWidth(sanitizeLine(result.reason), 100)}`, color: 'red', settled: true};
	return {text: `✓ ${name}  ${result.text}`, color: 'green', settled: true};
}
