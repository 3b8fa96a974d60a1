import {test} from 'node:test';
import assert from 'node:assert/strict';
import {render} from 'ink-testing-library';
import {Footer} from '../source/view/Footer.js';

/** A y/n question's detail says what else the action stops: it is never cut off at 80 columns. */

const question = {question: 'Resume sandbox sb-fc4e19706?', detail: "at the service's cap it pauses sandbox sb-16a4b0 (2 conversations), the oldest running · used by Checkout"};

test('a detail too long for the question line takes the notice line, whole', () => {
	const {lastFrame} = render(<Footer width={80} contexts={['conversations']} question={question} notice={{text: 'an older notice', level: 'info'}} />);
	const [first, second] = (lastFrame() ?? '').split('\n');
	assert.match(first ?? '', /Resume sandbox sb-fc4e19706\? \[y\/n\]/);
	assert.match(second ?? '', /pauses sandbox sb-16a4b0 \(2 conversations\)/);
	assert.doesNotMatch(lastFrame() ?? '', /an older notice/);
});

test('a detail that fits stays on the question line; the notice keeps its line', () => {
	const short = {question: 'Pause sandbox sb-1?', detail: 'used by Fix it'};
	const {lastFrame} = render(<Footer width={80} contexts={['conversations']} question={short} notice={{text: 'an older notice', level: 'info'}} />);
	const [first, second] = (lastFrame() ?? '').split('\n');
	assert.match(first ?? '', /Pause sandbox sb-1\? \[y\/n\] used by Fix it/);
	assert.match(second ?? '', /an older notice/);
});
