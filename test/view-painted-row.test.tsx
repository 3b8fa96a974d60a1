import assert from 'node:assert/strict';
import {test} from 'node:test';
import chalk from 'chalk';
import fc from 'fast-check';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import type {ConversationCells} from '../source/view/conversation-cells.js';
import {ConversationRowView} from '../source/view/ConversationRowView.js';

/**
 * A conversation row is one Text holding a string painted ahead of time (ink-paint.ts). It must
 * show exactly what the nested Texts it replaced showed, colours included.
 */
function NestedRow({cells, selected, focused}: {cells: ConversationCells; selected: boolean; focused: boolean}) {
	return (
		<Text wrap="truncate" inverse={selected && focused} bold={selected}>
			{selected ? '› ' : '  '}
			<Text color={cells.statusColor}>{cells.status}</Text>
			<Text color={cells.sandboxColor}>{cells.sandbox}</Text>
			{cells.reason ? <Text color={cells.reasonColor}>{cells.reason}</Text> : null}
			{cells.title}
			<Text dimColor={!selected}>{cells.rest}</Text>
			<Text color={cells.usageColor} dimColor={!selected && !cells.usageColor}>
				{cells.usage}
			</Text>
			<Text dimColor={!selected}>{cells.tail}</Text>
		</Text>
	);
}

const color = fc.constantFrom(undefined, 'red', 'yellow', 'cyan', 'gray', 'greenBright', '#ff8800', 'ansi256(208)', 'rgb(1, 2, 3)');
const text = fc.constantFrom('', 'running ', '◆ waiting ', 'stuck 4m · ', 'Fix the flaky test', ' acme/api   3h  2m', ' $1.20  45%', ' new', '漢字 é');
const cells = fc.record({key: fc.constant('k'), status: text, statusColor: color, sandbox: text, sandboxColor: color, reason: text, reasonColor: color, title: text, rest: text, usage: text, usageColor: color, tail: text});

// Each run renders two rows through Ink (about 50 ms on a quiet machine, several times that beside
// two busy loops): a timeout of its own, above the suite's minute. fast-check's default 100 runs
// (a new seed each time the suite runs, on each Node): 300 took 32-39 s of the file's minute on a
// slow day (2026-11-27) and over the minute beside two busy loops, so the verdict hung on the machine.
test('property: the painted row shows what the nested Texts showed, colours, dim, bold and inverse included', {timeout: 180_000}, async () => {
	const level = chalk.level;
	chalk.level = 3;
	try {
		// 100 pairs of renders take seconds: each run yields first, so the file's timers (its
		// timeout, the hang watchdog's heartbeat) still run between them.
		await fc.assert(
			fc.asyncProperty(cells, fc.boolean(), fc.boolean(), async (row, selected, focused) => {
				await new Promise((resolve) => setImmediate(resolve));
				const nested = render(<NestedRow cells={row} selected={selected} focused={focused} />);
				const painted = render(<ConversationRowView cells={row} selected={selected} focused={focused} />);
				try {
					assert.equal(painted.lastFrame(), nested.lastFrame());
				} finally {
					nested.unmount();
					painted.unmount();
				}
			}),
			{numRuns: 100},
		);
	} finally {
		chalk.level = level;
	}
});
