/**
 * Frames of a real conversation's size, as the agent server sends them (one JSON event per
 * frame, null fields left out): not the simulator's 884-byte average, but what a coding agent
 * writes over an afternoon. Per LLM call a `stats` state update; a tool call with its thought
 * (sometimes reasoning, sometimes a Responses reasoning item with its encrypted content) and its
 * arguments twice, as the SDK sends them (`action` and `tool_call.arguments`); the observation:
 * terminal output up to the SDK's 30,000-character cut, with colour escapes (`\u001b` in JSON)
 * and box-drawing and other non-ASCII characters in a share of them, file edits with the whole
 * file before and after; now and then a long agent message, a user message, a condensation that
 * forgets a few hundred events. Deterministic: the same index gives the same frame.
 */

/** xorshift32: fast, deterministic, good enough for sizes and word choice. */
class Random {
	#state: number;
	constructor(seed: number) {
		this.#state = seed >>> 0 || 0x9e3779b9;
	}
	next(): number {
		let x = this.#state;
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		this.#state = x >>> 0;
		return this.#state / 0x1_0000_0000;
	}
	int(low: number, high: number): number {
		return low + Math.floor(this.next() * (high - low + 1));
	}
	chance(p: number): boolean {
		return this.next() < p;
	}
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)]!;
	}
}

const words = 'the test fails because cart total rounding uses float instead of decimal so we convert amounts to cents before summing and update fixtures then rerun the suite with coverage and check lint migrations api handler request response timeout retry cache index query user session token config build deploy service worker queue event stream parser schema validate'.split(' ');
const identifiers = ['cart_total', 'parse_iso_week', 'RetryPolicy', 'fetch_page', 'next_page_id', 'handle_request', 'SessionStore', 'build_index', 'apply_discount', 'render_invoice', 'load_config', 'EventQueue'];
const files = ['src/cart/total.py', 'src/api/handlers.py', 'tests/test_cart.py', 'src/invoice/render.ts', 'src/components/Cart.tsx', 'migrations/0042_cents.py', 'docs/architecture.md', 'scripts/backfill_events.py'];
const commands = ['pytest -q tests/', 'npm test -- --runInBand', 'git diff --stat', 'ruff check src', 'python scripts/backfill_events.py --date 2025-11-04', 'grep -rn "total" src/', 'ls -la src/cart', 'cat src/cart/total.py', 'npm run build', 'git log --oneline -20'];
const unicode = ['✓', '✗', '—', '…', '│', '─', '→', '•', 'é', '°'];

function sentence(random: Random, length: number): string {
	let out = '';
	while (out.length < length) out += `${random.pick(words)}${random.chance(0.08) ? '. ' : ' '}`;
	return out.slice(0, length);
}

function codeLines(random: Random, chars: number): string {
	const lines: string[] = [];
	let size = 0;
	let indent = 0;
	while (size < chars) {
		const id = random.pick(identifiers);
		const kind = random.int(0, 5);
		const line =
			kind === 0
				? `def ${id}(self, value: int, *, strict: bool = False) -> int:`
				: kind === 1
					? `    return ${id}(value) + sum(item.amount_cents for item in self.items)`
					: kind === 2
						? `# ${sentence(random, random.int(20, 70))}`
						: kind === 3
							? `    if value is None:\n        raise ValueError("${id} needs a value")`
							: kind === 4
								? `    ${id} = ${random.int(0, 9999)}  # cents`
								: '';
		indent = kind === 0 ? 1 : indent;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join('\n');
}

function terminalOutput(random: Random, chars: number, colour: boolean, nonAscii: boolean): string {
	const lines: string[] = [];
	let size = 0;
	let n = 0;
	while (size < chars) {
		n++;
		const file = random.pick(files);
		let line =
			random.int(0, 3) === 0
				? `${file}:${random.int(1, 400)}: ${sentence(random, random.int(30, 90))}`
				: random.int(0, 2) === 0
					? `tests/test_cart.py::test_${random.pick(identifiers)}_${n} ${random.chance(0.9) ? 'PASSED' : 'FAILED'} [${random.int(0, 100)}%]`
					: `[2025-11-${String(random.int(1, 28)).padStart(2, '0')}] ${sentence(random, random.int(20, 100))}`;
		if (colour && random.chance(0.5)) line = `\u001B[${random.pick(['32', '31', '33', '1', '36'])}m${line}\u001B[0m`;
		if (nonAscii && random.chance(0.3)) line = `${random.pick(unicode)} ${line}`;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join('\n').slice(0, 30_000);
}

function base64(random: Random, length: number): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	let out = '';
	for (let index = 0; index < length; index++) out += alphabet[Math.floor(random.next() * 64)];
	return out;
}

const uuid = (n: number, salt: number) => {
	const hex = ((n * 2_654_435_761 + salt) >>> 0).toString(16).padStart(8, '0');
	return `${hex}-${(n % 65_536).toString(16).padStart(4, '0')}-4${(salt % 4096).toString(16).padStart(3, '0')}-8000-${String(n).padStart(12, '0')}`;
};

const start = Date.parse('2026-11-22T09:00:00Z');

/** The events of one agent step (an LLM call and what it led to), from `index` on. */
function step(random: Random, index: number, stepNumber: number): Array<Record<string, unknown>> {
	const events: Array<Record<string, unknown>> = [];
	const time = (offset: number) => new Date(start + (index + offset) * 50).toISOString().replace('Z', '');
	let offset = 0;
	const add = (event: Record<string, unknown>) => {
		events.push({id: uuid(index + offset, 7), timestamp: time(offset), ...event});
		offset++;
	};
	const tokens = 12_000 + stepNumber * 180;
	add({
		kind: 'ConversationStateUpdateEvent',
		source: 'environment',
		key: 'stats',
		value: {
			usage_to_metrics: {
				agent: {
					model_name: 'litellm_proxy/claude-sonnet-4-5-20250929',
					accumulated_cost: Math.round(stepNumber * 0.0123 * 1e4) / 1e4,
					max_budget_per_task: null,
					accumulated_token_usage: {model: 'litellm_proxy/claude-sonnet-4-5-20250929', prompt_tokens: tokens * stepNumber, completion_tokens: 310 * stepNumber, cache_read_tokens: tokens * (stepNumber - 1), cache_write_tokens: 2100, reasoning_tokens: 0, context_window: 200_000, per_turn_token: tokens, response_id: `chatcmpl-${stepNumber}`},
				},
			},
		},
	});
	if (stepNumber % 9 === 0) {
		add({kind: 'MessageEvent', source: 'agent', llm_message: {role: 'assistant', content: [{type: 'text', text: sentence(random, random.int(400, 4000))}]}, activated_skills: [], extended_content: []});
		return events;
	}
	const colour = random.chance(0.4);
	const nonAscii = random.chance(0.2);
	const tool = random.next() < 0.62 ? 'terminal' : random.next() < 0.85 ? 'file_editor' : 'task_tracker';
	const callId = `toolu_${uuid(index, 3).replaceAll('-', '').slice(0, 24)}`;
	const thought = [{type: 'text', text: sentence(random, random.int(80, 900))}];
	const reasoning = random.chance(0.35) ? {reasoning_content: sentence(random, random.int(300, 4000))} : {};
	const responsesItem = random.chance(0.15)
		? {responses_reasoning_item: {id: `rs_${stepNumber}`, summary: [sentence(random, random.int(60, 300))], encrypted_content: base64(random, random.int(1500, 6000)), status: 'completed'}}
		: {};
	let action: Record<string, unknown>;
	let observation: Record<string, unknown>;
	if (tool === 'terminal') {
		const command = random.pick(commands);
		action = {kind: 'TerminalAction', command, is_input: false, reset: false};
		const roll = random.next();
		const size = roll < 0.55 ? random.int(100, 1500) : roll < 0.85 ? random.int(2000, 12_000) : random.int(15_000, 30_000);
		const output = terminalOutput(random, size, colour, nonAscii);
		observation = {kind: 'TerminalObservation', content: [{type: 'text', text: output}], is_error: false, command, exit_code: random.chance(0.85) ? 0 : 1, timeout: false, metadata: {exit_code: 0, pid: 4242, username: 'openhands', hostname: 'runtime-7f9c', working_dir: '/workspace/project/acme-shop', py_interpreter_path: '/usr/bin/python3', prefix: '', suffix: ''}};
	} else if (tool === 'file_editor') {
		const path = `/workspace/project/acme-shop/${random.pick(files)}`;
		const before = codeLines(random, random.int(1000, 40_000));
		const create = random.chance(0.25);
		const oldStr = before.slice(0, random.int(50, 1500));
		const newStr = codeLines(random, random.int(50, 1500));
		const after = create ? codeLines(random, random.int(1000, 25_000)) : before.replace(oldStr, newStr);
		action = create ? {kind: 'FileEditorAction', command: 'create', path, file_text: after} : {kind: 'FileEditorAction', command: 'str_replace', path, old_str: oldStr, new_str: newStr};
		observation = {
			kind: 'FileEditorObservation',
			content: [{type: 'text', text: `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet:\n${after.slice(0, random.int(300, 2500))}\nReview the changes and make sure they are as expected.`}],
			is_error: false,
			command: create ? 'create' : 'str_replace',
			path,
			prev_exist: !create,
			...(create ? {} : {old_content: before}),
			new_content: after,
		};
	} else {
		const tasks = Array.from({length: random.int(3, 8)}, (_, n) => ({title: sentence(random, random.int(20, 60)), notes: sentence(random, random.int(0, 200)), status: n < 2 ? 'done' : n === 2 ? 'in_progress' : 'todo'}));
		action = {kind: 'TaskTrackerAction', command: 'plan', task_list: tasks};
		observation = {kind: 'TaskTrackerObservation', content: [{type: 'text', text: `Task list has been updated with ${tasks.length} items.`}], is_error: false, command: 'plan', task_list: tasks};
	}
	const {kind: _kind, ...args} = action;
	const actionId = uuid(index + offset, 7);
	add({
		kind: 'ActionEvent',
		source: 'agent',
		thought,
		...reasoning,
		...responsesItem,
		thinking_blocks: [],
		action,
		tool_name: tool,
		tool_call_id: callId,
		tool_call: {id: callId, name: tool, arguments: JSON.stringify(args), origin: 'completion'},
		llm_response_id: `chatcmpl-${stepNumber}`,
		security_risk: random.pick(['LOW', 'LOW', 'MEDIUM', 'UNKNOWN']),
		summary: sentence(random, random.int(30, 80)),
	});
	add({kind: 'ObservationEvent', source: 'environment', tool_name: tool, tool_call_id: callId, observation, action_id: actionId, extended_content: []});
	return events;
}

/** A condensation forgets the oldest few hundred events still in view. */
function condensation(random: Random, index: number): Record<string, unknown> {
	const forgotten = Array.from({length: random.int(100, 250)}, (_, n) => uuid(Math.max(0, index - 600 + n), 7));
	return {id: uuid(index, 11), timestamp: new Date(start + index * 50).toISOString().replace('Z', ''), kind: 'Condensation', source: 'environment', forgotten_event_ids: forgotten, summary: sentence(random, random.int(2000, 8000)), summary_offset: 1, llm_response_id: `condense-${index}`};
}

/**
 * `count` frames of a real conversation's size mix, in order, with fresh ids and timestamps 50 ms
 * apart, made as they are read (50,000 are ~350 MB: never all at once). `stats` fills as it goes.
 */
export function* realFrames(count: number, seed = 7, stats: {bytes: number; largest: number} = {bytes: 0, largest: 0}): Generator<string> {
	const random = new Random(seed);
	let index = 0;
	let stepNumber = 0;
	const made: Array<Record<string, unknown>> = [];
	while (index < count) {
		stepNumber++;
		if (index > 0 && index % 400 < 3) made.push(condensation(random, index));
		if (stepNumber % 40 === 0) made.push({id: uuid(index, 13), timestamp: new Date(start + index * 50).toISOString().replace('Z', ''), kind: 'MessageEvent', source: 'user', llm_message: {role: 'user', content: [{type: 'text', text: sentence(random, random.int(100, 2000))}]}, activated_skills: [], extended_content: []});
		made.push(...step(random, index, stepNumber));
		for (const event of made.splice(0)) {
			if (index >= count) return;
			const frame = JSON.stringify(event);
			stats.bytes += Buffer.byteLength(frame);
			stats.largest = Math.max(stats.largest, frame.length);
			index++;
			yield frame;
		}
	}
}
