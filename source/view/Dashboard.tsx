import {useEffect, useMemo, useReducer} from 'react';
import {Box, Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {countConversations, selectConversationKeys} from '../state/conversation-query.js';
import type {DashboardController, DashboardSnapshot, DashboardStore} from '../state/dashboard-types.js';
import {line} from './cells.js';
import {conversationListHeight, ConversationsPane} from './ConversationsPane.js';
import {Footer} from './Footer.js';
import {Header} from './Header.js';
import {HelpOverlay} from './HelpOverlay.js';
import type {ActionName} from './keymap.js';
import {installFastOutput} from './ink-output-speed.js';
import {computeLayout, minColumns, minRows} from './layout.js';
import {sandboxListHeight, SandboxesPane} from './SandboxesPane.js';
import {selectSandboxKeys} from './sandbox-cells.js';
import {ProfilePicker, type ProfileChoice} from './ProfilePicker.js';
import {StartForm} from './start/StartForm.js';
import {StillWhileHidden} from './still-while-hidden.js';
import {TabBar} from './TabBar.js';
import {TimelinePane} from './timeline/TimelinePane.js';
import {ChangesOverlay} from './changes/ChangesOverlay.js';
import {useChangesSession} from './changes/use-changes-session.js';
import {planSandboxAction} from './sandbox-question.js';
import {sandboxKeyOf} from '../state/sandbox-rows.js';
import {ActionConfirm} from './triage/ActionConfirm.js';
import {BulkPanel} from './triage/BulkPanel.js';
import {SearchOverlay} from './triage/SearchOverlay.js';
import {PendingActionsPanel, pendingPanelRows} from './triage/PendingActionsPanel.js';
import {runTriage} from './triage/run-triage.js';
import {executionStatusOf, shortTitle} from './triage/triage-plan.js';
import {TriagePrompt} from './triage/TriagePrompt.js';
import {useFrozenList} from './triage/use-frozen-list.js';
import {useDashboardKeys} from './use-dashboard-keys.js';
import {useDashboardSnapshot} from './use-dashboard-snapshot.js';
import {KeyRegistryContext, useKeyDispatch, useKeyRegistry} from './use-key-dispatch.js';
import {conversationLinks} from './links.js';
import {LinksPanel} from './LinksPanel.js';
import {useListWindow} from './use-list-window.js';
import {type StrayOutputSource, useStrayNotice} from './use-stray-notice.js';
import {useNow} from './use-now.js';
import {useTerminalSize} from './use-terminal-size.js';
import {initialViewState, keyContexts, type ViewState, viewReducer} from './view-state.js';

// Ink's line builder with caches that outlive a frame: most of a key press's cost otherwise.
installFastOutput();

export type DashboardProps = {
	store: DashboardStore;
	controller: DashboardController;
	/** `q` or ctrl-c: the caller unmounts and cleans up. */
	onQuit(): void;
	/** Start state, for tests and for opening the dashboard on a given pane. */
	initialView?: Partial<ViewState>;
	/** The config file's profiles (ctrl-p), the one in use, and how to switch (app.tsx rebuilds the store). */
	profiles?: readonly ProfileChoice[];
	currentProfile?: string | null;
	/** Resolves with null once switched (this dashboard is then replaced), or the reason it could not. */
	onSwitchProfile?(name: string): Promise<string | null>;
	/** Warnings and stray stderr taken off the terminal (app.tsx); each shows on the notice line. */
	strayOutput?: StrayOutputSource;
};

/** How long a notice stays on the notice line. */
const noticeMs = 15_000;

/**
 * The whole screen: header, tabs, the pane area, key hints and the notice line, in a box one row
 * shorter than the terminal. Reads the store's snapshot, keeps what the user is looking at in a
 * reducer, and acts only through the controller.
 */
export function Dashboard(props: DashboardProps) {
	const {store, controller, onQuit, initialView} = props;
	const snapshot = useDashboardSnapshot(store);
	const {columns, rows} = useTerminalSize();
	const [view, dispatch] = useReducer(viewReducer, {...initialViewState, ...initialView});
	const layout = computeLayout(columns, rows, view.zoomed);
	const registry = useKeyRegistry();
	// Row ages move in seconds at best; a 5 s clock keeps memoised rows still in between.
	const now = useNow(5000);
	// Server timestamps (created, updated, event times) are compared with the servers' clock.
	const serverNow = now + snapshot.connection.clockOffsetMs;

	const listed = useFrozenList(view.frozen, snapshot.conversations, selectConversationKeys(snapshot, view.conversationFilter, view.sort));
	const conversationKeys = listed.keys;
	const counts = countConversations(snapshot);
	const sandboxKeys = selectSandboxKeys(snapshot.sandboxes);
	const filterShown = view.editing === 'conversations' || view.conversationFilter.trim().length > 0;
	const conversationRows = conversationListHeight(layout.paneHeight, filterShown);
	const conversations = useListWindow(conversationKeys, conversationRows);
	const sandboxes = useListWindow(sandboxKeys, sandboxListHeight(layout.paneHeight, snapshot.specs.length));

	// The poller refreshes what is on screen first.
	const visibleKeys = conversationKeys.slice(conversations.offset, conversations.offset + conversationRows);
	const visibleId = visibleKeys.join(',');
	useEffect(() => {
		controller.setVisibleConversations(visibleKeys);
	}, [controller, visibleId]);

	const contexts = keyContexts(view);
	useKeyDispatch(registry, contexts);
	useDashboardKeys({registry, view, dispatch, snapshot, controller, conversationKeys, conversations, sandboxes, roomForTwo: layout.roomForTwo, onQuit});

	useStrayNotice(props.strayOutput, dispatch);
	const notice = latestNotice(snapshot, view, now);
	// The conversation a/x/m act on: the open one in the timeline, the selected one in the list.
	const actedOn = view.pane === 'timeline' ? snapshot.timeline?.conversationKey : view.pane === 'conversations' ? conversations.selectedKey : null;
	const actedOnStatus = actedOn ? executionStatusOf(snapshot, actedOn) : null;
	// While its agent works, the footer leads with the two stops: this agent (i) or the whole sandbox (p).
	const footerFirst = actedOnStatus === 'waiting_for_confirmation' ? waitingHints : actedOnStatus === 'running' ? workingHints : noHints;
	const timelineRow = snapshot.timeline ? snapshot.conversations.get(snapshot.timeline.conversationKey) : undefined;
	const timelineTitle = timelineRow?.conversation.title ? sanitizeLine(timelineRow.conversation.title) : snapshot.timeline ? snapshot.timeline.conversationKey.slice(0, 8) : null;
	const loading = snapshot.connection.lastSuccessAt === null && !snapshot.connection.keyRejected;

	const changesKey = view.overlay?.kind === 'changes' ? view.overlay.conversationKey : null;
	const changesSession = useChangesSession(controller, changesKey);

	const closeOverlay = () => dispatch({type: 'close-overlay'});
	const openTimeline = (key: string) => {
		controller.openTimeline(key);
		dispatch({type: 'set-filter', target: 'timeline', text: ''});
		dispatch({type: 'focus', pane: 'timeline'});
	};

	if (layout.tooSmall) {
		return (
			<Box height={layout.frameHeight} width={columns}>
				<Text wrap="truncate">{line(`Terminal too small: ${columns}x${rows}, need ${minColumns}x${minRows}. q quits.`, columns)}</Text>
			</Box>
		);
	}

	const paneHeight = layout.paneHeight;
	const listPane = view.pane === 'timeline' ? view.listPane : view.pane;

	const conversationsPane = (width: number) => (
		<ConversationsPane
			rows={listed.rows}
			keys={conversationKeys}
			frozenChanges={view.frozen ? listed.pendingChanges : null}
			total={snapshot.conversations.size}
			window={conversations}
			width={width}
			height={paneHeight}
			focused={view.pane === 'conversations' && view.overlay === null}
			filter={view.conversationFilter}
			editingFilter={view.editing === 'conversations'}
			sort={view.sort}
			loading={loading}
			now={serverNow}
			links={conversationLinks(snapshot, conversations.selectedKey)}
			onFilterChange={(text) => dispatch({type: 'type-filter', target: 'conversations', text})}
			onFilterDone={() => dispatch({type: 'stop-editing'})}
			onFilterCancel={() => {
				dispatch({type: 'set-filter', target: 'conversations', text: ''});
				dispatch({type: 'stop-editing'});
			}}
			onMove={(delta) => conversations.move(delta)}
		/>
	);
	const sandboxesPane = (width: number) => (
		<SandboxesPane
			sandboxes={snapshot.sandboxes}
			conversations={snapshot.conversations}
			specs={snapshot.specs}
			keys={sandboxKeys}
			window={sandboxes}
			width={width}
			height={paneHeight}
			focused={view.pane === 'sandboxes' && view.overlay === null}
			loading={loading}
			now={serverNow}
		/>
	);
	// While the open conversation waits for confirmation, what it waits for sits above its timeline.
	const waitingEvents =
		snapshot.timeline && executionStatusOf(snapshot, snapshot.timeline.conversationKey) === 'waiting_for_confirmation' ? snapshot.timeline.events : null;
	const panelRows = pendingPanelRows(waitingEvents);
	const timelinePane = (width: number) => (
		<TimelinePane
			timeline={snapshot.timeline}
			width={width}
			height={paneHeight - panelRows}
			focused={view.pane === 'timeline' && (view.overlay === null || view.overlay.kind === 'details')}
			filter={view.timelineFilter}
			editingFilter={view.editing === 'timeline'}
			detailsOpen={view.overlay?.kind === 'details'}
			onFilterChange={(text) => dispatch({type: 'set-filter', target: 'timeline', text})}
			onFilterType={(text) => dispatch({type: 'type-filter', target: 'timeline', text})}
			onEditFilter={() => dispatch({type: 'edit-filter', target: 'timeline'})}
			onFilterDone={() => dispatch({type: 'stop-editing'})}
			onOpenDetails={() => dispatch({type: 'open-overlay', overlay: {kind: 'details'}})}
			onCloseDetails={closeOverlay}
			onBack={() => dispatch({type: 'focus', pane: view.listPane})}
			focusEvent={view.timelineFocus}
			onFocused={() => dispatch({type: 'focused'})}
			onLoadOlder={() => controller.loadOlderEvents?.()}
			onPin={(key) => controller.pinTimeline?.(key)}
		/>
	);

	let overlay = null;
	if (view.overlay?.kind === 'help') {
		overlay = <HelpOverlay width={columns} height={paneHeight} onClose={closeOverlay} />;
	} else if (view.overlay?.kind === 'prompt') {
		const {purpose, conversationKey} = view.overlay;
		const title = shortTitle(snapshot, conversationKey);
		overlay = (
			<TriagePrompt
				key={`${purpose}:${conversationKey}`}
				purpose={purpose}
				title={title}
				width={columns}
				height={paneHeight}
				// The prompt stays open while it sends and closes itself once sent: a message the
				// server refused is still in the field, to retry or copy.
				onSend={async (text) => runTriage(controller, purpose, {conversationKey, title}, (notice) => dispatch({type: 'notice', text: notice, at: Date.now()}), text)}
				onSent={closeOverlay}
				onCancel={() => {
					closeOverlay();
					dispatch({type: 'notice', text: 'Cancelled.', at: Date.now()});
				}}
			/>
		);
	} else if (view.overlay?.kind === 'triage-confirm') {
		const {verb, conversationKey} = view.overlay;
		const title = shortTitle(snapshot, conversationKey);
		const say = (text: string) => dispatch({type: 'notice', text, at: Date.now()});
		overlay = (
			<ActionConfirm
				key={`${verb}:${conversationKey}`}
				verb={verb}
				conversationKey={conversationKey}
				title={title}
				snapshot={snapshot}
				controller={controller}
				width={columns}
				height={paneHeight}
				onYes={() => {
					if (verb === 'approve') {
						closeOverlay();
						void runTriage(controller, 'approve', {conversationKey, title}, say);
					} else {
						dispatch({type: 'open-overlay', overlay: {kind: 'prompt', purpose: 'reject', conversationKey}});
					}
				}}
				onNo={() => {
					closeOverlay();
					say(`Cancelled: nothing ${verb === 'approve' ? 'approved' : 'rejected'}.`);
				}}
				onRefused={say}
			/>
		);
	} else if (view.overlay?.kind === 'search') {
		overlay = (
			<SearchOverlay
				conversationKeys={conversationKeys}
				snapshot={snapshot}
				controller={controller}
				width={columns}
				height={paneHeight}
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
	} else if (view.overlay?.kind === 'bulk') {
		const bulk = view.overlay;
		overlay =
			bulk.action === 'interrupt' ? (
				<BulkPanel
					action="interrupt"
					keys={bulk.conversationKeys}
					skipped={bulk.skipped}
					snapshot={snapshot}
					width={columns}
					height={paneHeight}
					interruptOne={controller.interrupt ? (key) => controller.interrupt!(key) : undefined}
					onClose={closeOverlay}
				/>
			) : (
				<BulkPanel
					action={bulk.action}
					keys={bulk.sandboxKeys}
					skipped={bulk.skipped}
					snapshot={snapshot}
					width={columns}
					height={paneHeight}
					onRun={(keys) => {
						// The store queues each request in the request budget and reports failures on the row itself.
						for (const key of keys) (bulk.action === 'pause' ? controller.pauseSandbox(key) : controller.resumeSandbox(key)).catch(() => undefined);
					}}
					onClose={closeOverlay}
				/>
			);
	} else if (view.overlay?.kind === 'links') {
		const key = view.overlay.conversationKey;
		const conversation = snapshot.conversations.get(key)?.conversation;
		const sessionKey = conversation?.session_api_key?.reveal();
		overlay = (
			<LinksPanel
				title={`"${shortTitle(snapshot, key)}"`}
				links={conversationLinks(snapshot, key)}
				emptyText={`No links: its sandbox is ${String(conversation?.sandbox_status ?? 'MISSING').toLowerCase()} (links exist only while it runs).`}
				secrets={sessionKey ? [sessionKey] : []}
				width={columns}
				height={paneHeight}
				onCopied={(text) => dispatch({type: 'notice', text, at: Date.now()})}
				onClose={closeOverlay}
			/>
		);
	} else if (view.overlay?.kind === 'profiles') {
		overlay = (
			<ProfilePicker
				profiles={props.profiles ?? []}
				current={props.currentProfile ?? null}
				width={columns}
				height={paneHeight}
				onChoose={(name) => {
					closeOverlay();
					if (name === props.currentProfile) return;
					if (!props.onSwitchProfile) {
						dispatch({type: 'notice', text: 'Switching profiles needs the dashboard started by agent-tui.', at: Date.now()});
						return;
					}
					dispatch({type: 'notice', text: `Switching to profile "${name}"…`, at: Date.now()});
					void props.onSwitchProfile(name).then((problem) => {
						if (problem) dispatch({type: 'notice', text: problem, at: Date.now()});
					});
				}}
				onClose={closeOverlay}
			/>
		);
	} else if (view.overlay?.kind === 'changes') {
		const {conversationKey, file} = view.overlay;
		overlay = (
			<ChangesOverlay
				session={changesSession}
				supported={typeof controller.openChanges === 'function'}
				title={shortTitle(snapshot, conversationKey)}
				file={file}
				width={columns}
				height={paneHeight}
				onOpenFile={(index) => dispatch({type: 'open-overlay', overlay: {kind: 'changes', conversationKey, file: index}})}
				onClose={closeOverlay}
				onResume={() => {
					const sandboxId = snapshot.conversations.get(conversationKey)?.conversation.sandbox_id;
					const plan = planSandboxAction(snapshot, 'resume', sandboxId ? sandboxKeyOf(snapshot.sandboxes, sandboxId) : null);
					if (plan.kind === 'refuse') dispatch({type: 'notice', text: plan.text, at: Date.now()});
					else dispatch({type: 'open-overlay', overlay: {kind: 'confirm', request: plan.request}});
				}}
			/>
		);
	} else if (view.overlay?.kind === 'start') {
		overlay = (
			<StartForm
				progress={snapshot.start}
				width={Math.min(columns, 120)}
				height={paneHeight}
				active
				onSubmit={(request) => controller.startConversation(request)}
				onOpenConversation={(key) => {
					closeOverlay();
					openTimeline(key);
				}}
				onReset={() => controller.resetStart()}
				onClose={closeOverlay}
			/>
		);
	}

	// Every pane stays mounted (hidden with display none) so the timeline keeps its cursor and
	// follow mode across pane switches, overlays and resizes between the two layouts.
	const listWidth = layout.wide ? layout.leftWidth : columns;
	const timelineWidth = layout.wide ? layout.rightWidth : columns;
	const show = (pane: 'conversations' | 'sandboxes' | 'timeline') =>
		overlay === null && (layout.wide ? pane === 'timeline' || pane === listPane : pane === view.pane);
	const shown = (visible: boolean) => (visible ? 'flex' : 'none');
	const question = view.overlay?.kind === 'confirm' ? view.overlay.request : null;
	return (
		<KeyRegistryContext.Provider value={registry}>
			<Box flexDirection="column" height={layout.frameHeight} width={columns} overflow="hidden">
				<Header
					serverLabel={snapshot.serverLabel}
					demo={snapshot.demo}
					connection={snapshot.connection}
					counts={counts}
					invalidItems={snapshot.invalidItems}
					width={columns}
				/>
				<TabBar
					pane={view.pane}
					width={columns}
					conversations={snapshot.conversations.size}
					sandboxes={snapshot.sandboxes.size}
					timelineTitle={timelineTitle}
					sort={view.sort}
					wide={layout.wide}
					zoomed={view.zoomed && layout.roomForTwo}
					needingAttention={counts.needingAttention}
				/>
				<Box height={paneHeight} width={columns} overflow="hidden">
					{overlay}
					<Box display={shown(show('conversations'))} width={listWidth} flexShrink={0}>
						<StillWhileHidden hidden={!show('conversations')}>{conversationsPane(listWidth)}</StillWhileHidden>
					</Box>
					<Box display={shown(show('sandboxes'))} width={listWidth} flexShrink={0}>
						<StillWhileHidden hidden={!show('sandboxes')}>{sandboxesPane(listWidth)}</StillWhileHidden>
					</Box>
					<Box display={shown(overlay === null && layout.wide)} width={1} flexShrink={0}>
						<Text dimColor>{'│\n'.repeat(paneHeight).trimEnd()}</Text>
					</Box>
					<Box display={shown(show('timeline'))} width={timelineWidth} flexShrink={0} flexDirection="column">
						{waitingEvents ? <PendingActionsPanel events={waitingEvents} width={timelineWidth} /> : null}
						{timelinePane(timelineWidth)}
					</Box>
				</Box>
				<Footer width={columns} contexts={contexts} question={question} notice={notice} first={footerFirst} />
			</Box>
		</KeyRegistryContext.Provider>
	);
}

type Notice = {text: string; level: 'info' | 'warn' | 'error'};

const waitingHints: readonly ActionName[] = ['approve', 'reject'];
const workingHints: readonly ActionName[] = ['interrupt', 'pause'];
const noHints: readonly ActionName[] = [];

/**
 * The notice line: the newer of the store's notice and the view's own, while fresh; otherwise
 * the last connection error, so a failing server is never silent.
 */
function latestNotice(snapshot: DashboardSnapshot, view: ViewState, now: number): Notice | null {
	const store = snapshot.notice;
	const own = view.notice;
	const newest: (Notice & {at: number}) | null =
		store && (!own || store.at >= own.at) ? store : own ? {text: own.text, level: own.level ?? 'info', at: own.at} : null;
	if (newest && now - newest.at < noticeMs) return newest;
	if (snapshot.connection.lastError) return {text: snapshot.connection.lastError, level: 'error'};
	return null;
}
