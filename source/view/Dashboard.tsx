import {useEffect, useEffectEvent, useMemo, useReducer} from 'react';
import {Box, Text, useWindowSize} from 'ink';
import type {AgeNow} from '../format/time.js';
import {countConversations} from '../state/conversation-query.js';
import {selectConversationTree} from '../state/conversation-tree.js';
import type {DashboardController, DashboardSnapshot, DashboardStore} from '../state/dashboard-types.js';
import {line} from './cells.js';
import {conversationListHeight, ConversationsPane} from './ConversationsPane.js';
import {DashboardOverlay, isPanelOverlay} from './DashboardOverlay.js';
import {Footer} from './Footer.js';
import {Header} from './Header.js';
import type {ActionName} from './keymap.js';
import {computeLayout, minColumns, minRows} from './layout.js';
import {sandboxListHeight, SandboxesPane} from './SandboxesPane.js';
import {selectSandboxKeys} from './sandbox-cells.js';
import type {ProfileChoice} from './ProfilePicker.js';
import {allProfiles} from '../state/server-keys.js';
import {StillWhileHidden} from './still-while-hidden.js';
import {TabBar} from './TabBar.js';
import {TimelinePane} from './timeline/TimelinePane.js';
import {timelineViewProps} from './timeline/timeline-view-props.js';
import {useChangesSession} from './changes/use-changes-session.js';
import {PendingActionsPanel, pendingPanelRows} from './triage/PendingActionsPanel.js';
import {conversationTitle, executionStatusOf} from '../state/triage-plan.js';
import {useFrozenList} from './triage/use-frozen-list.js';
import {useDashboardKeys} from './use-dashboard-keys.js';
import {useDashboardSnapshot} from './use-dashboard-snapshot.js';
import {useCopyKeys} from './use-copy-keys.js';
import {heldText, KeyRegistryContext, useKeyDispatch, useKeyRegistry} from './use-key-dispatch.js';
import {conversationLinks} from './links.js';
import {useListWindow} from './use-list-window.js';
import {type StrayOutputSource, useStrayNotice, useUnexpectedErrorReport} from './use-stray-notice.js';
import {useNow} from './use-now.js';
import {initialViewState, keyContexts, type ViewState, viewReducer} from './view-state.js';
import {switchProfile, viewCommands} from './view-commands.js';

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
	const registry = useKeyRegistry();
	const snapshot = useDashboardSnapshot(store, registry.frameHold);
	const {columns, rows} = useWindowSize();
	const [view, dispatch] = useReducer(viewReducer, {...initialViewState, ...initialView});
	const commands = viewCommands(dispatch);
	const {say} = commands;
	const layout = computeLayout(columns, rows, view.zoomed);
	// Row ages move in seconds at best; a 5 s clock keeps memoised rows still in between.
	const now = useNow(5000);
	// Server timestamps (created, updated, event times) are compared with the servers' clock;
	// while the data disputes the only clock there is, ages are not told (state/data-clock.ts).
	const serverNow: AgeNow = snapshot.connection.agesUnverified ? 'unknown' : now + snapshot.connection.clockOffsetMs;

	const serverNames = useMemo(() => snapshot.servers?.map((server) => server.name), [snapshot.servers]);
	// The list is a tree: sub-agents under their parent, folded where the user folded them.
	// Frozen (`F`), the held rows go through the same filter, sort and folds as the live ones.
	const listed = useFrozenList(view.frozen, snapshot.conversations, (conversations) => selectConversationTree({conversations}, view.conversationFilter, view.sort, view.collapsed));
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
	// Told when the rows shown change (their keys joined), not on every render's new array.
	const reportVisible = useEffectEvent(() => controller.setVisibleConversations(visibleKeys));
	useEffect(() => {
		reportVisible();
	}, [controller, visibleId]);

	const contexts = keyContexts(view);
	// A key whose handler throws costs that key, not the dashboard (the stack goes to the debug log).
	const reportUnexpected = useUnexpectedErrorReport(props.strayOutput, dispatch);
	useKeyDispatch(registry, contexts, {onError: reportUnexpected, onHeld: (count) => say(heldText(count), 'warn')});
	const onAllProfiles = () => {
		if (props.currentProfile === allProfiles) say('Every profile is shown already; ctrl-p picks one.');
		else if (!props.onSwitchProfile || !props.profiles?.some((profile) => profile.name === allProfiles)) say('Every profile at once needs two or more profiles in the config file (see the readme: "Profiles").');
		else switchProfile(props.onSwitchProfile, allProfiles, 'Opening every profile…', say);
	};
	useDashboardKeys({registry, view, dispatch, snapshot, controller, conversationKeys, treeNodes: listed.nodes, conversations, sandboxes, roomForTwo: layout.roomForTwo, onQuit, onAllProfiles});

	useStrayNotice(props.strayOutput, dispatch);
	const notice = latestNotice(snapshot, view, now);
	// The conversation a/x/m act on: the open one in the timeline, the selected one in the list.
	const actedOn = view.pane === 'timeline' ? snapshot.timeline?.conversationKey : view.pane === 'conversations' ? conversations.selectedKey : null;
	const actedOnStatus = actedOn ? executionStatusOf(snapshot, actedOn) : null;
	useCopyKeys(registry, controller, actedOn, say);
	// While its agent works, the footer leads with the two stops: this agent (i) or the whole sandbox (p).
	// A stopped sandbox comes first: a status read from stored history is the last known one, and
	// neither stop applies; a PAUSED sandbox leads with r, the one way to go live.
	const actedOnSandbox = actedOn ? snapshot.conversations.get(actedOn)?.conversation.sandbox_status : undefined;
	const sandboxStopped = actedOnSandbox != null && String(actedOnSandbox) !== 'RUNNING';
	const footerFirst = sandboxStopped
		? String(actedOnSandbox) === 'PAUSED'
			? stoppedHints
			: noHints
		: actedOnStatus === 'waiting_for_confirmation'
			? waitingHints
			: actedOnStatus === 'running'
				? workingHints
				: noHints;
	const timelineTitle = snapshot.timeline ? conversationTitle(snapshot, snapshot.timeline.conversationKey) : null;
	const loading = snapshot.connection.lastSuccessAt === null && !snapshot.connection.keyRejected;
	// Until the first whole walk an empty list is one not arrived yet, unless the server is failing.
	const loadingConversations = loading || (!snapshot.conversationsListed && snapshot.conversations.size === 0 && snapshot.connection.lastError === null && !snapshot.connection.keyRejected);

	const changesKey = view.overlay?.kind === 'changes' ? view.overlay.conversationKey : null;
	const changesSession = useChangesSession(controller, changesKey);

	const openTimeline = (key: string) => {
		controller.openTimeline(key);
		commands.showTimeline(true);
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
			nodes={listed.nodes}
			frozenChanges={view.frozen ? listed.pendingChanges : null}
			total={snapshot.conversations.size}
			window={conversations}
			width={width}
			height={paneHeight}
			focused={view.pane === 'conversations' && view.overlay === null}
			filter={view.conversationFilter}
			editingFilter={view.editing === 'conversations'}
			sort={view.sort}
			loading={loadingConversations}
			loadError={snapshot.connection.lastError}
			unreadableCount={snapshot.invalidItems}
			unreadable={snapshot.unreadableRows}
			now={serverNow}
			links={conversationLinks(snapshot, conversations.selectedKey)}
			serverNames={serverNames}
			answers={snapshot.answers}
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
			serverNames={serverNames}
		/>
	);
	// While the open conversation waits for confirmation, what it waits for sits above its timeline.
	const waitingEvents =
		snapshot.timeline && executionStatusOf(snapshot, snapshot.timeline.conversationKey) === 'waiting_for_confirmation' ? snapshot.timeline.events : null;
	const panelRows = pendingPanelRows(waitingEvents);
	const timelinePane = (width: number) => (
		<TimelinePane
			timeline={snapshot.timeline}
			eventZone={snapshot.connection.eventZone ?? null}
			width={width}
			height={paneHeight - panelRows}
			{...timelineViewProps(view, dispatch)}
			onNotice={say}
			onLoadOlder={() => controller.loadOlderEvents?.()}
			onLoadNewer={() => controller.loadNewerEvents?.()}
			onToNewest={() => controller.timelineToNewest?.()}
			onPin={(range) => controller.pinTimeline?.(range)}
		/>
	);

	const overlay = isPanelOverlay(view.overlay) ? (
		<DashboardOverlay
			overlay={view.overlay}
			snapshot={snapshot}
			controller={controller}
			conversationKeys={conversationKeys}
			width={columns}
			height={paneHeight}
			dispatch={dispatch}
			openTimeline={openTimeline}
			profiles={props.profiles}
			currentProfile={props.currentProfile}
			onSwitchProfile={props.onSwitchProfile}
			changesSession={changesSession}
			now={serverNow}
		/>
	) : null;

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
					keySource={snapshot.keySource ?? null}
					demo={snapshot.demo}
					connection={snapshot.connection}
					servers={snapshot.servers}
					counts={counts}
					invalidItems={snapshot.invalidItems}
					width={columns}
				/>
				<TabBar
					pane={view.pane}
					width={columns}
					conversations={snapshot.conversations.size}
					listed={snapshot.conversationsListed}
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

type Notice = {text: string; level: 'info' | 'warn' | 'error'; retryAt?: number | null};


const waitingHints: readonly ActionName[] = ['approve', 'reject'];
const workingHints: readonly ActionName[] = ['interrupt', 'pause'];
const stoppedHints: readonly ActionName[] = ['resume'];
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
	// Counted down in the footer from the header's own `nextRetryAt`.
	if (snapshot.connection.lastError) return {text: snapshot.connection.lastError, level: 'error', retryAt: snapshot.connection.nextRetryAt};
	return null;
}
