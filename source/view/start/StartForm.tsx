import {Box, Text} from 'ink';
import {useEffect, useEffectEvent, useReducer, useRef, useState} from 'react';
import {sanitizeLine} from '../../format/sanitize.js';
import {truncateToWidth} from '../../format/width.js';
import type {StartProgress} from '../../state/dashboard-types.js';
import {useKeyHandlers} from '../use-key-dispatch.js';
import {FormField} from './FormField.js';
import {PluginRows} from './PluginRows.js';
import {focusedStop, initialStartForm, type StartRequest, startFormReducer} from './start-form-state.js';
import {StartProgressView} from './StartProgressView.js';
import {TrustReview} from './TrustReview.js';

export type StartFormProps = {
	/** snapshot.start */
	progress: StartProgress;
	width: number;
	height: number;
	/** Answers the `start` key context while true. */
	active: boolean;
	/** controller.startConversation */
	onSubmit(request: StartRequest): Promise<void> | void;
	/** READY: the shell opens the new conversation's timeline. */
	onOpenConversation(conversationKey: string): void;
	/** controller.resetStart */
	onReset(): void;
	/** esc: close the form. */
	onClose(): void;
	/** What starting does to another sandbox at the service's cap (`Starting pauses sandbox …`), if anything. */
	capWarning?: string | null;
};

const labelWidth = 14;
const messageRows = 3;

/**
 * Start a conversation: message, repository, plugins (typed, or decoded from a pasted launch
 * link and then confirmed with a typed "trust"), then the start task's phases until READY, when
 * the shell opens the new conversation. Keys (context `start`): tab/↓ and shift-tab/↑ move
 * between fields, enter moves on or presses a button, esc steps back or closes.
 */
export function StartForm({progress, width, height, active, onSubmit, onOpenConversation, onReset, onClose, capWarning}: StartFormProps) {
	const [state, dispatch] = useReducer(startFormReducer, initialStartForm);
	const [sendError, setSendError] = useState<string | null>(null);
	const opened = useRef(false);
	const showProgress = state.stage === 'sent' || progress.state === 'starting';
	const failed = showProgress && (progress.state === 'error' || sendError !== null);

	// Sent once per confirmed request; a rejected promise is shown like a failed start.
	const send = useEffectEvent(() => {
		if (state.stage !== 'sent' || !state.request) return;
		setSendError(null);
		opened.current = false;
		Promise.resolve(onSubmit(state.request)).catch((error: unknown) => {
			setSendError(error instanceof Error ? error.message : String(error));
		});
	});
	useEffect(() => {
		send();
	}, [state.stage, state.request]);

	const openWhenReady = useEffectEvent(() => {
		if (state.stage !== 'sent' || opened.current) return;
		if (progress.state === 'ready' && progress.conversationKey) {
			opened.current = true;
			onOpenConversation(progress.conversationKey);
		}
	});
	useEffect(() => {
		openWhenReady();
	}, [state.stage, progress.state, progress.conversationKey]);

	useKeyHandlers(
		'start',
		active
			? {
				up: () => dispatch({type: 'focus', delta: -1}),
				down: () => dispatch({type: 'focus', delta: 1}),
				open: () => {
					if (failed) {
						onReset();
						setSendError(null);
						dispatch({type: 'edit-again'});
					} else if (!showProgress) {
						dispatch({type: 'press'});
					}
				},
				back: () => (state.stage === 'trust' ? dispatch({type: 'back'}) : onClose()),
			}
			: {},
	);

	const cut = (text: string) => truncateToWidth(text, width);
	const title = (
		<Text bold wrap="truncate">
			{cut('Start a conversation')}
		</Text>
	);

	if (showProgress) {
		const shown: StartProgress = sendError ? {...progress, state: 'error', error: sendError} : progress;
		return (
			<Box flexDirection="column" width={width} height={height}>
				{title}
				<StartProgressView progress={shown} width={width} height={Math.max(1, height - 1)} />
			</Box>
		);
	}

	if (state.stage === 'trust' && state.request?.plugins) {
		return (
			<Box flexDirection="column" width={width} height={height}>
				{title}
				<TrustReview
					plugins={state.request.plugins}
					origin={state.launch?.origin ?? null}
					trustInput={state.trustInput}
					width={width}
					height={Math.max(1, height - 2 - state.errors.length)}
					onTrustInput={(value) => dispatch({type: 'set-trust', value})}
				/>
				{state.errors.map((error, index) => (
					<Text key={index} color="red" wrap="truncate">
						{cut(error)}
					</Text>
				))}
			</Box>
		);
	}

	const focus = focusedStop(state);
	const linkStatus = state.linkError
		? {text: `✗ launch link: ${state.linkError}`, color: 'red'}
		: state.launch
			? {text: `✓ launch link${state.launch.origin ? ` from ${state.launch.origin}` : ''}: ${state.launch.count} plugin${state.launch.count === 1 ? '' : 's'} below; review them, you will be asked to trust them`, color: 'yellow'}
			: null;
	const errors = state.errors.slice(0, 3);
	const fixedRows = 1 + (focus.kind === 'message' ? messageRows : 1) + 1 + 1 + (linkStatus ? 1 : 0) + 1 + 1 + errors.length + 1;
	const field = (kind: 'message' | 'repository' | 'link', label: string, placeholder: string, rows = 1) => (
		<FormField
			label={label}
			labelWidth={labelWidth}
			value={state[kind]}
			placeholder={placeholder}
			width={width}
			rows={rows}
			focused={focus.kind === kind}
			onChange={(value) => dispatch({type: 'set', field: kind, value})}
		/>
	);
	// The marker shows the focus without colour (NO_COLOR, monochrome terminals).
	const button = (label: string, focused: boolean) => (
		<Text inverse={focused} color={focused ? 'cyan' : undefined}>
			{`${focused ? '›' : ' '}${label}`}
		</Text>
	);
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{title}
			{field('message', 'message', 'what should the agent do?', messageRows)}
			{field('repository', 'repository', 'owner/name (optional)')}
			{field('link', 'launch link', 'paste https://…/launch?plugins=… (optional)')}
			{linkStatus ? (
				<Text color={linkStatus.color} wrap="truncate">
					{cut(`  ${sanitizeLine(linkStatus.text)}`)}
				</Text>
			) : null}
			<Text bold wrap="truncate">
				{cut(`  plugins (${state.plugins.length})`)}
			</Text>
			<PluginRows
				plugins={state.plugins}
				focus={focus}
				width={width}
				maxRows={Math.max(1, height - fixedRows)}
				onChange={(index, part, value) => dispatch({type: 'set-plugin', index, part, value})}
			/>
			<Box height={1} width={width} overflow="hidden">
				<Text> </Text>
				{button('[+ add plugin]', focus.kind === 'add')}
				<Text> </Text>
				{button(state.launch ? '[review and start]' : '[start]', focus.kind === 'submit')}
			</Box>
			{capWarning ? (
				<Text color="yellow" wrap="truncate">
					{cut(`  ${capWarning}`)}
				</Text>
			) : null}
			{errors.map((error, index) => (
				<Text key={index} color="red" wrap="truncate">
					{cut(sanitizeLine(error))}
				</Text>
			))}
			<Text dimColor wrap="truncate">
				{cut('tab/↓ next · shift-tab/↑ previous · enter next or press · esc close')}
			</Text>
		</Box>
	);
}
