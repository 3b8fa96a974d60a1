import {test} from 'node:test';
import assert from 'node:assert/strict';
import {render} from 'ink-testing-library';
import TextInput from 'ink-text-input';
import {TextField} from '../source/view/TextField.js';
import {eventually} from './helpers/eventually.js';

/** An unfocused field is drawn by ink-text-input and takes no keys; a focused one shows its cursor. */

test('an unfocused field shows its value or placeholder and ignores typed keys', async () => {
	const changes: string[] = [];
	const typed: string[] = [];
	// A focused ink-text-input beside it reads the same keys: once it has them, the unfocused one has had its chance.
	const empty = render(
		<>
			<TextField value="" placeholder="kind:ActionEvent" focus={false} onChange={(value) => changes.push(value)} />
			<TextInput value="" onChange={(value) => typed.push(value)} />
		</>,
	);
	assert.match(empty.lastFrame() ?? '', /kind:ActionEvent/);
	empty.stdin.write('abc');
	await eventually(() => typed.join(','), 'the focused field to read the keys', {until: (value) => value.length > 0});
	assert.match(empty.lastFrame() ?? '', /kind:ActionEvent/);
	assert.deepEqual(changes, [], 'ink-text-input must not read keys for an unfocused field');
	empty.unmount();

	const filled = render(<TextField value="pytest" placeholder="kind:ActionEvent" focus={false} onChange={() => {}} />);
	assert.equal((filled.lastFrame() ?? '').trim(), 'pytest');
	filled.unmount();
});
