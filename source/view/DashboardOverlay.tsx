import {useEffect, type Dispatch} from 'react';
import type {DashboardController, DashboardSnapshot} from '../state/dashboard-types.js';
import type {ChangesSession} from '../state/changes-session.js';
import type {AgeNow} from '../format/time.js';
import {HelpOverlay} from './HelpOverlay.js';
import {ProfilePicker, type ProfileChoice} from './ProfilePicker.js';
import {AskPanel} from './triage/AskPanel.js';
import {StartForm} from './start/StartForm.js';
import {ChangesOverlay} from './changes/ChangesOverlay.js';
import {awaitingText} from './awaited-key.js';
import {capQuestion, planSandboxAction} from './sandbox-question.js';
import {sandboxKeyOf} from '../state/sandbox-rows.js';
import {ActionConfirm} from './triage/ActionConfirm.js';
import {BulkPanel} from './triage/BulkPanel.js';
import {planBulk} from '../state/bulk-plan.js';
import {SearchOverlay} from './triage/SearchOverlay.js';
import {runTriage} from './triage/run-triage.js';
import {shortTitle} from '../state/triage-plan.js';
import {TriagePrompt} from './triage/TriagePrompt.js';
import {conversationLinks} from './links.js';
import {LinksPanel} from './LinksPanel.js';
import {causeFilterWord} from '../state/causes.js';
import {causeLabel} from './triage/cause-words.js';
import {CauseQueue} from './triage/CauseQueue.js';
import {RemedyPanel} from './triage/RemedyPanel.js';
import {SnoozeChooser} from './triage/SnoozeChooser.js';
import {applySnooze} from './triage/snooze-keys.js';
import {DeletePanel} from './triage/DeletePanel.js';
import type {Overlay, ViewAction} from './view-state.js';
import {switchProfile, viewCommands} from './view-commands.js';

/** The overlays drawn in place of the panes; `details` and `confirm` live in the timeline and the footer. */
export type PanelOverlay = Exclude<Overlay, {kind: 'details'} | {kind: 'confirm'}>;

export function isPanelOverlay(overlay: Overlay | null): overlay is PanelOverlay {
	return overlay !== null && overlay.kind !== 'details' && overlay.kind !== 'confirm';
}

type Props = {
	overlay: PanelOverlay;
	snapshot: DashboardSnapshot;
	controller: DashboardController;
	/** The conversations the list shows, in its order (search looks through these). */
	conversationKeys: readonly string[];
	width: number;
	height: number;
	dispatch: Dispatch<ViewAction>;
	/** Opens a conversation's timeline and focuses it. */
	openTimeline(key: string): void;
	profiles?: readonly ProfileChoice[] | undefined;
	currentProfile?: string | null | undefined;
	onSwitchProfile?: ((name: string) => Promise<string | null>) | undefined;
	/** The open Changes view's session (use-changes-session.ts, kept by Dashboard), if any. */
	changesSession: ChangesSession | null;
	/** Now on the servers' clock (the queue's ages). */
	/** Now on the data's clock; `unknown` while it is not known (ages read `?`). */
	now?: AgeNow;
};

/**
 * The one overlay open over the pane area (help, triage prompts and confirmations, search, bulk
 * actions, links, the profile picker, the start form), wired to the controller and the view's
 * reducer. Dashboard.tsx only decides whether one covers the panes.
 */
export function DashboardOverlay(props: Props) {
	const {snapshot, controller, conversationKeys, width, height, dispatch, openTimeline, changesSession} = props;
	const {say, closeOverlay, openOverlay, focus} = viewCommands(dispatch);
	// Every panel covers the same area: the pane area under the header and tabs.
	const area = {width, height};
	// A bulk pause or resume opened before the sandbox list arrived plans once, when it arrives;
	// from then on the panel's list stays what the user confirms.
	const awaiting = props.overlay.kind === 'bulk' && props.overlay.action !== 'interrupt' ? props.overlay : null;
	useEffect(() => {
		if (!awaiting?.awaitingList || !snapshot.sandboxesListed) return;
		dispatch({type: 'open-overlay', overlay: {kind: 'bulk', action: awaiting.action, ...planBulk(snapshot, awaiting.action, awaiting.awaitingList)}});
	}, [awaiting, snapshot, dispatch]);
	let overlay = null;
	if (props.overlay.kind === 'help') {
		overlay = <HelpOverlay {...area} onClose={closeOverlay} />;
	} else if (props.overlay.kind === 'prompt') {
		const {purpose, conversationKey} = props.overlay;
		const title = shortTitle(snapshot, conversationKey);
		overlay = (
			<TriagePrompt
				key={`${purpose}:${conversationKey}`}
				purpose={purpose}
				title={title}
				{...area}
				// The prompt stays open while it sends and closes itself once sent: a message the
				// server refused is still in the field, to retry or copy.
				onSend={async (text) => runTriage(controller, purpose, {conversationKey, title}, say, text)}
				onSent={closeOverlay}
				onCancel={() => {
					closeOverlay();
					say('Cancelled.');
				}}
			/>
		);
	} else if (props.overlay.kind === 'ask') {
		const {conversationKey} = props.overlay;
		overlay = (
			<AskPanel
				key={conversationKey}
				title={shortTitle(snapshot, conversationKey)}
				executionStatus={snapshot.conversations.get(conversationKey)?.conversation.execution_status}
				{...area}
				ask={(question, signal) => (controller.askAgent ? controller.askAgent(conversationKey, question, signal) : Promise.reject(new Error('asking is not available here')))}
				onClose={closeOverlay}
			/>
		);
	} else if (props.overlay.kind === 'triage-confirm') {
		const {verb, conversationKey} = props.overlay;
		const title = shortTitle(snapshot, conversationKey);
		overlay = (
			<ActionConfirm
				key={`${verb}:${conversationKey}`}
				verb={verb}
				conversationKey={conversationKey}
				title={title}
				snapshot={snapshot}
				controller={controller}
				{...area}
				onYes={() => {
					if (verb === 'approve') {
						closeOverlay();
						void runTriage(controller, 'approve', {conversationKey, title}, say);
					} else {
						openOverlay({kind: 'prompt', purpose: 'reject', conversationKey});
					}
				}}
				onNo={() => {
					closeOverlay();
					say(`Cancelled: nothing ${verb === 'approve' ? 'approved' : 'rejected'}.`);
				}}
				onRefused={say}
			/>
		);
	} else if (props.overlay.kind === 'search') {
		overlay = (
			<SearchOverlay
				eventZone={snapshot.connection.eventZone ?? null}
				conversationKeys={conversationKeys}
				snapshot={snapshot}
				controller={controller}
				{...area}
				onOpen={(hit, query) => {
					closeOverlay();
					openTimeline(hit.conversationKey);
					// The timeline opens filtered to the query, so the matching events are what it shows,
					// with the chosen one selected as soon as the stream has brought it.
					dispatch({type: 'set-filter', target: 'timeline', text: query});
					dispatch({type: 'focus-event', event: {conversationKey: hit.conversationKey, id: hit.event.id, timestamp: hit.event.timestamp}});
				}}
				onClose={closeOverlay}
			/>
		);
	} else if (props.overlay.kind === 'bulk') {
		const bulk = props.overlay;
		overlay =
			bulk.action === 'interrupt' ? (
				<BulkPanel
					action="interrupt"
					keys={bulk.conversationKeys}
					skipped={bulk.skipped}
					snapshot={snapshot}
					{...area}
					interruptOne={controller.interrupt ? (key) => controller.interrupt!(key) : undefined}
					onClose={closeOverlay}
				/>
			) : (
				<BulkPanel
					action={bulk.action}
					keys={bulk.sandboxKeys}
					skipped={bulk.skipped}
					loading={bulk.awaitingList !== undefined}
					snapshot={snapshot}
					{...area}
					onRun={(keys) => {
						// Resumes go one at a time on fresh data (state/fresh-plan.ts): two sent together can leave more running than the cap.
						if (bulk.action === 'resume' && controller.resumeInSteps) void controller.resumeInSteps(keys, null, () => undefined, () => false).catch(() => undefined);
						// The store queues each request in the request budget and reports failures on the row itself.
						else for (const key of keys) (bulk.action === 'pause' ? controller.pauseSandbox(key) : controller.resumeSandbox(key)).catch(() => undefined);
					}}
					onClose={closeOverlay}
				/>
			);
	} else if (props.overlay.kind === 'links') {
		const key = props.overlay.conversationKey;
		const conversation = snapshot.conversations.get(key)?.conversation;
		const sessionKey = conversation?.session_api_key?.reveal();
		overlay = (
			<LinksPanel
				title={`"${shortTitle(snapshot, key)}"`}
				links={conversationLinks(snapshot, key)}
				emptyText={`No links: its sandbox is ${String(conversation?.sandbox_status ?? 'MISSING').toLowerCase()} (links exist only while it runs).`}
				secrets={sessionKey ? [sessionKey] : []}
				{...area}
				onCopied={say}
				onClose={closeOverlay}
			/>
		);
	} else if (props.overlay.kind === 'profiles') {
		overlay = (
			<ProfilePicker
				profiles={props.profiles ?? []}
				current={props.currentProfile ?? null}
				{...area}
				onChoose={(name) => {
					closeOverlay();
					if (name === props.currentProfile) return;
					if (!props.onSwitchProfile) say('Switching profiles needs the dashboard started by agent-tui.');
					else switchProfile(props.onSwitchProfile, name, `Switching to profile "${name}"…`, say);
				}}
				onClose={closeOverlay}
			/>
		);
	} else if (props.overlay.kind === 'changes') {
		const {conversationKey, file} = props.overlay;
		overlay = (
			<ChangesOverlay
				session={changesSession}
				supported={typeof controller.openChanges === 'function'}
				title={shortTitle(snapshot, conversationKey)}
				file={file}
				{...area}
				onOpenFile={(index) => openOverlay({kind: 'changes', conversationKey, file: index})}
				onClose={closeOverlay}
				onNotice={say}
				onResume={() => {
					// Pressed before the sandbox list arrived: asked once it has (use-dashboard-keys.ts).
					if (!snapshot.sandboxesListed) {
						dispatch({type: 'await-key', awaited: {verb: 'resume', pane: 'timeline', key: conversationKey, overlay: 'changes', notice: awaitingText('resume', 'the sandbox list')}, at: Date.now()});
						return;
					}
					const sandboxId = snapshot.conversations.get(conversationKey)?.conversation.sandbox_id;
					const plan = planSandboxAction(snapshot, 'resume', sandboxId ? sandboxKeyOf(snapshot.sandboxes, sandboxId) : null);
					if (plan.kind === 'refuse') say(plan.text);
					else openOverlay({kind: 'confirm', request: plan.request});
				}}
			/>
		);
	} else if (props.overlay.kind === 'queue') {
		overlay = (
			<CauseQueue
				snapshot={snapshot}
				now={props.now ?? Date.now()}
				{...area}
				onShow={(group) => {
					closeOverlay();
					// The list under the group's filter word: what `cause:` matches is what the queue counted.
					dispatch({type: 'set-filter', target: 'conversations', text: `cause:${causeFilterWord(group)}`});
					focus('conversations');
				}}
				onRemedy={(group) => openOverlay({kind: 'remedy', remedy: group.remedy!, title: causeLabel(group.cause), conversationKeys: group.keys})}
				onSnooze={(group) => openOverlay({kind: 'snooze', title: `${causeLabel(group.cause)} (${group.keys.length})`, conversationKeys: group.keys, fromQueue: true})}
				onRefused={say}
				onClearDead={(keys) => openOverlay({kind: 'delete-dead', conversationKeys: keys})}
				onClose={closeOverlay}
			/>
		);
	} else if (props.overlay.kind === 'snooze') {
		const {title, conversationKeys: keys, fromQueue} = props.overlay;
		// Back where it was asked: the queue (without the group now), or the list.
		const back = () => (fromQueue ? openOverlay({kind: 'queue'}) : closeOverlay());
		overlay = (
			<SnoozeChooser
				title={title}
				{...area}
				onPick={(pick) => {
					back();
					say(applySnooze(controller, keys, pick, title));
				}}
				onCancel={back}
			/>
		);
	} else if (props.overlay.kind === 'delete-dead') {
		overlay = <DeletePanel keys={props.overlay.conversationKeys} snapshot={snapshot} controller={controller} now={props.now ?? Date.now()} width={width} height={height} onClose={closeOverlay} />;
	} else if (props.overlay.kind === 'remedy') {
		const {remedy, title, conversationKeys: keys} = props.overlay;
		overlay = (
			<RemedyPanel
				key={`${remedy}:${title}`}
				remedy={remedy}
				title={title}
				conversationKeys={keys}
				snapshot={snapshot}
				controller={controller}
				{...area}
				onClose={(notice) => {
					closeOverlay();
					if (notice) say(notice);
				}}
			/>
		);
	} else if (props.overlay.kind === 'start') {
		overlay = (
			<StartForm
				progress={snapshot.start}
				width={Math.min(width, 120)}
				height={height}
				active
				onSubmit={(request) => controller.startConversation(request)}
				onOpenConversation={(key) => {
					closeOverlay();
					openTimeline(key);
				}}
				onReset={() => controller.resetStart()}
				onClose={closeOverlay}
				capWarning={startCapWarning(snapshot)}
			/>
		);
	}

	return overlay;
}

/** A start first runs the service's pause of old sandboxes: say which one it pauses before [start] is pressed. */
export function startCapWarning(snapshot: DashboardSnapshot): string | null {
	const cap = capQuestion(snapshot, null);
	if (cap.question) return `⚠ Starting${cap.question.replace(/^ It/, '')} ${cap.detail.replace(/ \u00B7 $/, '')}`;
	return cap.detail ? `Starting: ${cap.detail.replace(/ \u00B7 $/, '')}` : null;
}
