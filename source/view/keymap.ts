/**
 * Every key the dashboard answers to, as data. The input dispatcher (use-key-dispatch.ts) looks
 * keys up here, the footer hints and the help overlay are generated from here, so what the help
 * says is what the keys do. Adding a binding is one row in `keymap`; a handler for its action in
 * the context that owns it makes it work.
 */

/** Where a binding applies. The dispatcher is given a stack of these, most specific first. */
export type KeyContext =
	| 'always'
	| 'global'
	| 'conversations'
	| 'sandboxes'
	| 'timeline'
	| 'details'
	| 'help'
	| 'confirm'
	| 'filter'
	| 'prompt'
	| 'profiles'
	| 'start'
	/** The Changes view: the files a conversation's agent changed. */
	| 'changes'
	| 'links'
	/** `!`: what needs you, grouped by cause. */
	| 'queue'
	/** A group's remedy: what it acts on, then y/n, then each result. */
	| 'remedy'
	/** The Changes view showing one file's diff. */
	| 'diff'
	/** `s`: how long to snooze (until it changes, an hour, a day, a week). */
	| 'snooze';

export type ActionName =
	| 'help'
	| 'quit'
	| 'forceQuit'
	| 'nextPane'
	| 'previousPane'
	| 'paneConversations'
	| 'paneSandboxes'
	| 'paneTimeline'
	| 'up'
	| 'down'
	| 'top'
	| 'bottom'
	| 'pageUp'
	| 'pageDown'
	| 'open'
	| 'back'
	| 'filter'
	| 'follow'
	| 'order'
	| 'pause'
	| 'resume'
	| 'refresh'
	| 'start'
	| 'sort'
	| 'nextAttention'
	| 'previousAttention'
	| 'confirmYes'
	| 'confirmNo'
	| 'applyFilter'
	| 'closeHelp'
	| 'approve'
	| 'reject'
	| 'nudge'
	| 'freeze'
	| 'zoom'
	| 'bulkPause'
	| 'bulkResume'
	| 'interrupt'
	| 'continueAgent'
	| 'bulkInterrupt'
	| 'links'
	| 'copyLink'
	| 'openLink'
	| 'search'
	| 'send'
	| 'cancel'
	| 'profiles'
	| 'allProfiles'
	| 'ask'
	| 'changes'
	| 'nextHunk'
	| 'previousHunk'
	| 'nextFile'
	| 'previousFile'
	| 'toggleSubAgents'
	| 'collapseSubAgents'
	| 'expandSubAgents'
	| 'queue'
	| 'runAll'
	| 'resumeAll'
	| 'clearDead'
	| 'runRetryable'
	| 'copyId'
	| 'copyUrl'
	| 'copyPatch'
	| 'pager'
	| 'snooze'
	| 'unsnooze';

/** Ink's named keys (the boolean flags on useInput's `key`). */
export type NamedKey =
	| 'upArrow'
	| 'downArrow'
	| 'leftArrow'
	| 'rightArrow'
	| 'pageUp'
	| 'pageDown'
	| 'home'
	| 'end'
	| 'return'
	| 'escape'
	| 'tab';

/** One key: a printable character, or a named key; `ctrl`/`shift` must match exactly when set. */
export type KeySpec = {input?: string; name?: NamedKey; ctrl?: boolean; shift?: boolean};

export type Binding = {
	action: ActionName;
	keys: readonly KeySpec[];
	description: string;
	contexts: readonly KeyContext[];
	/** Short label for the footer hints; bindings without one are listed only in help. */
	hint?: string;
};

const char = (input: string): KeySpec => ({input});
const ctrl = (input: string): KeySpec => ({input, ctrl: true});
const named = (name: NamedKey, shift?: boolean): KeySpec => (shift === undefined ? {name} : {name, shift});

/** The list contexts share movement keys. */
const lists: readonly KeyContext[] = ['conversations', 'sandboxes', 'timeline', 'details', 'help', 'changes', 'diff', 'links', 'queue'];

/** The keys as shipped; `keymap` is this table with the config file's `keys` applied (key-remap.ts). */
export const defaultKeymap: readonly Binding[] = [
	{action: 'forceQuit', keys: [ctrl('c')], description: 'Quit, from anywhere (even while typing)', contexts: ['always']},
	{action: 'quit', keys: [char('q')], description: 'Quit', contexts: ['global'], hint: 'quit'},
	{action: 'help', keys: [char('?')], description: 'Show this help', contexts: ['global'], hint: 'help'},
	{action: 'closeHelp', keys: [char('?'), named('escape'), char('q')], description: 'Close the help', contexts: ['help'], hint: 'close'},
	{action: 'nextPane', keys: [named('tab', false)], description: 'Next pane', contexts: ['global']},
	{action: 'previousPane', keys: [named('tab', true)], description: 'Previous pane', contexts: ['global']},
	{action: 'paneConversations', keys: [char('1')], description: 'Conversations pane', contexts: ['global'], hint: 'panes'},
	{action: 'paneSandboxes', keys: [char('2')], description: 'Sandboxes pane', contexts: ['global']},
	{action: 'paneTimeline', keys: [char('3')], description: 'Timeline pane', contexts: ['global']},
	{action: 'up', keys: [char('k'), named('upArrow')], description: 'Move up', contexts: lists},
	{action: 'down', keys: [char('j'), named('downArrow')], description: 'Move down', contexts: lists, hint: 'move'},
	// In a text field j and k are letters: only the arrows move the list under it.
	{action: 'up', keys: [named('upArrow')], description: 'Move the list selection up while typing', contexts: ['filter']},
	{action: 'down', keys: [named('downArrow')], description: 'Move the list selection down while typing', contexts: ['filter']},
	{action: 'top', keys: [char('g'), named('home')], description: 'Go to the top', contexts: lists},
	{action: 'bottom', keys: [char('G'), named('end')], description: 'Go to the bottom', contexts: lists},
	{action: 'pageUp', keys: [named('pageUp')], description: 'Page up', contexts: lists},
	{action: 'pageDown', keys: [named('pageDown')], description: 'Page down', contexts: lists},
	{action: 'open', keys: [named('return')], description: 'Open the selected conversation\'s timeline', contexts: ['conversations'], hint: 'open'},
	{action: 'open', keys: [named('return')], description: 'Open the selected event\'s details', contexts: ['timeline'], hint: 'details'},
	{action: 'open', keys: [named('return')], description: 'Open the timeline of a conversation using this sandbox', contexts: ['sandboxes'], hint: 'open'},
	{action: 'back', keys: [named('escape')], description: 'Clear the filter', contexts: ['conversations', 'sandboxes']},
	{action: 'back', keys: [named('escape')], description: 'Clear the filter, then back to the list', contexts: ['timeline'], hint: 'back'},
	{action: 'back', keys: [named('escape')], description: 'Back to the timeline', contexts: ['details'], hint: 'back'},
	{action: 'filter', keys: [char('/')], description: 'Filter: status:error (agent) sandbox:paused (sandbox) error:rate_limit (cause) repo:owner/name text', contexts: ['conversations'], hint: 'filter'},
	{action: 'filter', keys: [char('/')], description: 'Filter: kind:ActionEvent source:agent text', contexts: ['timeline'], hint: 'filter'},
	{action: 'applyFilter', keys: [named('return')], description: 'Keep the filter and return to the list', contexts: ['filter'], hint: 'done'},
	{action: 'back', keys: [named('escape')], description: 'Clear the filter and close it', contexts: ['filter'], hint: 'clear'},
	{action: 'sort', keys: [char('o')], description: 'Cycle the sort order', contexts: ['conversations'], hint: 'sort'},
	{action: 'toggleSubAgents', keys: [char(' ')], description: 'Show or hide the sub-agents under this conversation (on a sub-agent: its parent\'s)', contexts: ['conversations']},
	{action: 'collapseSubAgents', keys: [named('leftArrow')], description: 'Hide the sub-agents (on a sub-agent: go to its parent)', contexts: ['conversations']},
	{action: 'expandSubAgents', keys: [named('rightArrow')], description: 'Show the sub-agents under this conversation', contexts: ['conversations']},
	{action: 'nextAttention', keys: [char('n')], description: 'Next conversation needing attention', contexts: ['conversations', 'sandboxes', 'timeline', 'details'], hint: 'next!'},
	{action: 'previousAttention', keys: [char('N')], description: 'Previous conversation needing attention', contexts: ['conversations', 'sandboxes', 'timeline', 'details']},
	{action: 'follow', keys: [char('f')], description: 'Follow new events (tail); moving the cursor stops following', contexts: ['timeline'], hint: 'follow'},
	{action: 'order', keys: [char('O')], description: 'Oldest or newest first', contexts: ['timeline']},
	{action: 'interrupt', keys: [char('i')], description: 'Stop this agent only (asks first); its sandbox and neighbours keep running', contexts: ['conversations', 'timeline'], hint: 'stop agent'},
	{action: 'continueAgent', keys: [char('c')], description: 'Let this stopped agent continue (asks first)', contexts: ['conversations', 'timeline'], hint: 'continue'},
	{action: 'pause', keys: [char('p')], description: 'Pause the whole sandbox: every agent in it stops (asks, says how many)', contexts: ['conversations', 'sandboxes', 'timeline'], hint: 'pause sandbox'},
	{action: 'resume', keys: [char('r')], description: 'Resume the sandbox (asks first)', contexts: ['conversations', 'sandboxes', 'timeline'], hint: 'resume sandbox'},
	{action: 'zoom', keys: [char('z')], description: 'Zoom: the focused pane takes the whole width (wide terminals); again shows both', contexts: ['global']},
	{action: 'refresh', keys: [ctrl('r')], description: 'Refresh now', contexts: ['global']},
	{action: 'start', keys: [char('+')], description: 'Start a conversation', contexts: ['global'], hint: 'start'},
	{action: 'snooze', keys: [char('s')], description: 'Snooze: out of !, n/N and the alerts until it changes, or for an hour, a day, a week (asks which)', contexts: ['conversations']},
	{action: 'unsnooze', keys: [char('u')], description: 'Unsnooze: back in !, n/N and the alerts now (the filter `snoozed` lists them)', contexts: ['conversations']},
	{action: 'approve', keys: [char('a')], description: 'Approve the pending actions of a conversation waiting for you', contexts: ['conversations', 'timeline'], hint: 'approve'},
	{action: 'reject', keys: [char('x')], description: 'Reject the pending actions (asks for an optional reason)', contexts: ['conversations', 'timeline'], hint: 'reject'},
	{action: 'nudge', keys: [char('m')], description: 'Send the agent a message and run it', contexts: ['conversations', 'timeline'], hint: 'message'},
	{action: 'ask', keys: [char('A')], description: 'Ask the agent a question; it keeps working and its history is unchanged', contexts: ['conversations', 'timeline'], hint: 'ask'},
	{action: 'freeze', keys: [char('F')], description: 'Freeze the list while you read; again applies the changes', contexts: ['conversations']},
	{action: 'bulkPause', keys: [char('P')], description: 'Pause every sandbox of the conversations shown (lists them, asks you to type the count)', contexts: ['conversations']},
	{action: 'bulkInterrupt', keys: [char('I')], description: 'Stop the agent of every conversation shown (lists them, asks for the count)', contexts: ['conversations']},
	{action: 'copyId', keys: [char('y')], description: 'Copy the conversation\'s id to the clipboard (OSC 52, over SSH and tmux too)', contexts: ['conversations', 'timeline']},
	{action: 'copyUrl', keys: [char('Y')], description: 'Copy the conversation\'s page in the web UI to the clipboard', contexts: ['conversations', 'timeline']},
	{action: 'links', keys: [char('l')], description: 'Sandbox links (VS Code, apps), tokens hidden; enter copies one', contexts: ['conversations', 'timeline']},
	{action: 'copyLink', keys: [named('return'), char('y')], description: 'Copy the whole link to the clipboard (OSC 52); it is never drawn', contexts: ['links'], hint: 'copy'},
	{action: 'openLink', keys: [char('o')], description: 'Make the selected row a terminal link (OSC 8) to the whole link; its text stays masked', contexts: ['links'], hint: 'clickable'},
	{action: 'back', keys: [named('escape'), char('q')], description: 'Close the links', contexts: ['links'], hint: 'close'},
	{action: 'bulkResume', keys: [char('R')], description: 'Resume every sandbox of the conversations shown (lists them, asks you to type the count)', contexts: ['conversations']},
	{action: 'profiles', keys: [ctrl('p')], description: 'Switch to another profile of the config file', contexts: ['global']},
	{action: 'allProfiles', keys: [char('*')], description: 'Every profile at once: one list with a SERVER column', contexts: ['global']},
	{action: 'back', keys: [named('escape')], description: 'Close the profile list', contexts: ['profiles'], hint: 'close'},
	{action: 'search', keys: [char('S'), ctrl('f')], description: 'Search the events of the conversations shown (text, kind:, source:)', contexts: ['conversations', 'sandboxes', 'timeline']},
	{action: 'send', keys: [named('return')], description: 'Send, ask, search (then open the chosen hit), or confirm', contexts: ['prompt'], hint: 'send'},
	{action: 'up', keys: [named('upArrow')], description: 'Scroll up', contexts: ['prompt']},
	{action: 'down', keys: [named('downArrow')], description: 'Scroll down', contexts: ['prompt']},
	{action: 'pageUp', keys: [named('pageUp')], description: 'Page up', contexts: ['prompt']},
	{action: 'pageDown', keys: [named('pageDown')], description: 'Page down', contexts: ['prompt']},
	{action: 'cancel', keys: [named('escape')], description: 'Cancel, or close', contexts: ['prompt'], hint: 'cancel'},
	{action: 'confirmYes', keys: [char('y'), char('Y')], description: 'Yes, do it', contexts: ['confirm'], hint: 'yes'},
	{action: 'confirmNo', keys: [char('n'), char('N'), named('escape')], description: 'No, cancel', contexts: ['confirm'], hint: 'no'},
	{action: 'open', keys: [named('return')], description: 'Show or hide what a condensation forgot', contexts: ['details']},
	{action: 'down', keys: [named('tab', false), named('downArrow')], description: 'Next field', contexts: ['start'], hint: 'next'},
	{action: 'up', keys: [named('tab', true), named('upArrow')], description: 'Previous field', contexts: ['start']},
	{action: 'open', keys: [named('return')], description: 'Next field, or press the focused button', contexts: ['start'], hint: 'press'},
	{action: 'back', keys: [named('escape')], description: 'Step back, or close the form', contexts: ['start'], hint: 'close'},
	{action: 'changes', keys: [char('d')], description: 'Changes: the files this conversation\'s agent changed, and their diffs', contexts: ['conversations', 'timeline'], hint: 'changes'},
	{action: 'open', keys: [named('return')], description: 'Show the file\'s diff', contexts: ['changes'], hint: 'diff'},
	{action: 'back', keys: [named('escape'), char('q')], description: 'Close the Changes view', contexts: ['changes'], hint: 'close'},
	{action: 'back', keys: [named('escape'), char('q')], description: 'Back to the list of changed files', contexts: ['diff'], hint: 'files'},
	{action: 'nextHunk', keys: [char(']')], description: 'Next hunk', contexts: ['diff'], hint: 'next hunk'},
	{action: 'previousHunk', keys: [char('[')], description: 'Previous hunk', contexts: ['diff'], hint: 'prev hunk'},
	{action: 'nextFile', keys: [char('}')], description: 'Next file\'s diff', contexts: ['diff'], hint: 'next file'},
	{action: 'previousFile', keys: [char('{')], description: 'Previous file\'s diff', contexts: ['diff'], hint: 'prev file'},
	{action: 'refresh', keys: [ctrl('r')], description: 'Read the changed files again (drops the diffs read so far)', contexts: ['changes', 'diff']},
	{action: 'copyPatch', keys: [char('y')], description: 'Copy the patch (every file in the list; this file in its diff) to the clipboard, in git\'s format', contexts: ['changes', 'diff'], hint: 'copy patch'},
	{action: 'pager', keys: [char('v')], description: 'Open the patch in $PAGER (less by default); the dashboard comes back when it exits', contexts: ['changes', 'diff'], hint: 'pager'},
	{action: 'pager', keys: [char('v')], description: 'Open the selected event\'s JSON in $PAGER (less by default)', contexts: ['timeline', 'details']},
	{action: 'resume', keys: [char('r')], description: 'Resume the sandbox when it is not running (asks first; never on its own)', contexts: ['changes', 'diff']},
	{action: 'queue', keys: [char('!')], description: 'What needs you, grouped by cause: count, oldest, and the remedy of each group', contexts: ['conversations', 'sandboxes', 'timeline']},
	{action: 'runRetryable', keys: [char('C')], description: 'Run again every conversation whose error is retryable (lists them, asks y/n)', contexts: ['conversations']},
	{action: 'open', keys: [named('return')], description: 'Show the group\'s conversations in the list (filter cause:…)', contexts: ['queue'], hint: 'show'},
	{action: 'runAll', keys: [char('c')], description: 'Run the whole group again, when its errors are retryable (lists them, asks y/n)', contexts: ['queue'], hint: 'run all'},
	{action: 'resumeAll', keys: [char('r')], description: 'Resume the sandboxes of a group paused mid-run (says what the cap pauses, asks y/n)', contexts: ['queue'], hint: 'resume all'},
	{action: 'snooze', keys: [char('s')], description: 'Snooze every conversation of the group (asks how long)', contexts: ['queue'], hint: 'snooze'},
	{action: 'clearDead', keys: [char('D')], description: 'Delete the dead: sandbox ERROR/MISSING, unchanged 7d+ (lists them, asks the count)', contexts: ['queue'], hint: 'clear dead'},
	{action: 'back', keys: [named('escape'), char('q'), char('!')], description: 'Close the queue', contexts: ['queue'], hint: 'close'},
	{action: 'up', keys: [named('upArrow'), char('k')], description: 'Previous choice', contexts: ['snooze']},
	{action: 'down', keys: [named('downArrow'), char('j')], description: 'Next choice', contexts: ['snooze'], hint: 'choose'},
	{action: 'open', keys: [named('return')], description: 'Snooze for the chosen time', contexts: ['snooze'], hint: 'snooze'},
	{action: 'snooze', keys: [char('s')], description: 'Snooze until it changes (a new event, status or cause)', contexts: ['snooze'], hint: 'until it changes'},
	{action: 'back', keys: [named('escape'), char('q')], description: 'Cancel', contexts: ['snooze'], hint: 'cancel'},
	{action: 'confirmYes', keys: [char('y'), char('Y')], description: 'Yes, do it for every one listed', contexts: ['remedy'], hint: 'yes'},
	{action: 'confirmNo', keys: [char('n'), char('N'), named('escape')], description: 'No; under way, stop (what is not sent yet is not sent); once done, close', contexts: ['remedy'], hint: 'no/stop'},
	{action: 'up', keys: [named('upArrow'), char('k')], description: 'Scroll up', contexts: ['remedy']},
	{action: 'down', keys: [named('downArrow'), char('j')], description: 'Scroll down', contexts: ['remedy']},
	{action: 'back', keys: [named('return')], description: 'Close, once done', contexts: ['remedy']},
];

/**
 * The table in force: the dispatcher, the footer, the help and every "press r" message read it.
 * Replaced once, before the dashboard draws, when the config file remaps keys (setKeymap).
 */
export let keymap: readonly Binding[] = defaultKeymap;

export function setKeymap(table: readonly Binding[]): void {
	keymap = table;
}

/** Does `spec` match what Ink's useInput reported? */
export function keyMatches(spec: KeySpec, input: string, key: InkKey): boolean {
	if (Boolean(spec.ctrl) !== Boolean(key.ctrl)) return false;
	if (spec.name) {
		if (!key[spec.name]) return false;
		return spec.shift === undefined || spec.shift === Boolean(key.shift);
	}
	return spec.input === input;
}

/** The subset of Ink's `Key` the dispatcher reads (so tests can build one by hand). */
export type InkKey = Partial<Record<NamedKey | 'ctrl' | 'shift' | 'meta', boolean>>;

/**
 * The binding for a key in a stack of contexts (most specific first), or undefined. Contexts are
 * searched in order, so a modal context listed first shadows the panes under it.
 */
export function findBinding(
	stack: readonly KeyContext[],
	input: string,
	key: InkKey,
	table: readonly Binding[] = keymap,
): Binding | undefined {
	for (const context of stack) {
		for (const binding of table) {
			if (!binding.contexts.includes(context)) continue;
			if (binding.keys.some((spec) => keyMatches(spec, input, key))) return binding;
		}
	}
	return undefined;
}

const keyNames: Record<NamedKey, string> = {
	upArrow: '↑',
	downArrow: '↓',
	leftArrow: '←',
	rightArrow: '→',
	pageUp: 'pgup',
	pageDown: 'pgdn',
	home: 'home',
	end: 'end',
	return: 'enter',
	escape: 'esc',
	tab: 'tab',
};

export function keyLabel(spec: KeySpec): string {
	let base = spec.name ? keyNames[spec.name] : spec.input === ' ' ? 'space' : (spec.input ?? '?');
	if (spec.shift && spec.name) base = `shift-${base}`;
	return spec.ctrl ? `ctrl-${base}` : base;
}

export function bindingKeysLabel(binding: Binding): string {
	return binding.keys.map(keyLabel).join('/');
}

/** Human names of contexts, as the help overlay titles its sections. */
export const contextTitles: Record<KeyContext, string> = {
	always: 'Anywhere',
	global: 'Everywhere but text fields',
	conversations: 'Conversations',
	sandboxes: 'Sandboxes',
	timeline: 'Timeline',
	details: 'Event details',
	help: 'Help',
	confirm: 'Confirmation',
	filter: 'Filter line',
	prompt: 'Text prompts: message, reject reason, question (A), search (S), typed count',
	profiles: 'Profile list',
	start: 'Start form',
	changes: 'Changes (d)',
	links: 'Links (l)',
	queue: 'Causes (!)',
	remedy: 'A group\'s remedy',
	diff: 'A file\'s diff',
	snooze: 'Snooze (s)',
};

export type HelpSection = {context: KeyContext; title: string; rows: Array<{keys: string; description: string}>};

/** The help overlay's content: every binding, grouped by the contexts it works in. */
export function helpSections(table: readonly Binding[] = keymap): HelpSection[] {
	const order = Object.keys(contextTitles) as KeyContext[];
	const sections: HelpSection[] = [];
	for (const context of order) {
		const rows = table
			.filter((binding) => binding.contexts.includes(context))
			.map((binding) => ({keys: bindingKeysLabel(binding), description: binding.description}));
		if (rows.length > 0) sections.push({context, title: contextTitles[context], rows});
	}
	return sections;
}

/**
 * Footer hints for a context stack: the bindings with a hint, most specific context first, each
 * action once, as `key label` pairs.
 */
export function footerHints(stack: readonly KeyContext[], table: readonly Binding[] = keymap, first: readonly ActionName[] = []): string[] {
	const seen = new Set<string>();
	const hints: string[] = [];
	// The actions that matter for what is selected (approve and reject on a conversation
	// waiting for you) lead, so a narrow footer drops the general hints, not these.
	const ordered = first.length === 0 ? table : [...table.filter((binding) => first.includes(binding.action)), ...table.filter((binding) => !first.includes(binding.action))];
	for (const context of stack) {
		for (const binding of ordered) {
			if (!binding.hint || !binding.contexts.includes(context)) continue;
			// `1`/`2`/`3` collapse into one hint, and movement shows as j/k.
			const label = binding.action === 'paneConversations' ? '1-3/tab' : binding.action === 'down' && binding.keys[0]?.input === 'j' ? 'j/k' : shortKeys(binding);
			const id = `${binding.action}:${label}`;
			if (seen.has(binding.action) || seen.has(id)) continue;
			seen.add(binding.action);
			seen.add(id);
			hints.push(`${label} ${binding.hint}`);
		}
	}
	return hints;
}

function shortKeys(binding: Binding): string {
	const first = binding.keys[0];
	return first ? keyLabel(first) : '';
}

/** The first key of an action, as the help shows it (so messages follow the keymap). */
export function keyOf(action: ActionName): string {
	const binding = keymap.find((candidate) => candidate.action === action);
	return binding ? shortKeys(binding) || '?' : '?';
}
