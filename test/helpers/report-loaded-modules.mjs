import {writeFileSync} from 'node:fs';

/**
 * Preloaded into the built CLI by test/cli-loads.test.ts (NODE_OPTIONS=--import=…): writes which
 * of Node's own modules were loaded to `$AGENT_TUI_REPORT_MODULES` at the dashboard's first frame
 * (`<file>.first-frame`), and again as the process exits (`<file>.exit`). The first frame is the
 * first write with the tab bar's `Conversations (N)`, whatever N: the dashboard waits a moment for
 * the list before it draws, and on a busy machine draws without it; what it loads after the
 * first frame (ws, the segmenters) may then come before the list, and is not before the frame.
 * The list also names each kind of Intl object made by then (`Intl.Segmenter`), directly or by a locale
 * method (`toLocaleString` makes an `Intl.NumberFormat`): the first of a process sets up ICU's
 * locale data.
 */
const report = process.env.AGENT_TUI_REPORT_MODULES;
const intlMade = new Set();
const nodeModules = () => [
	...process.moduleLoadList.filter((name) => name.startsWith('NativeModule ') && !name.includes('internal/')).map((name) => name.slice('NativeModule '.length)),
	...intlMade,
];
if (report) {
	for (const kind of ['Segmenter', 'NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames', 'Locale']) {
		Intl[kind] = new Proxy(Intl[kind], {
			construct(target, parameters, newTarget) {
				intlMade.add(`Intl.${kind}`);
				return Reflect.construct(target, parameters, newTarget);
			},
		});
	}
	// The locale methods that make such an object inside V8, named as the object they make.
	const localeMethods = [
		[Number.prototype, 'toLocaleString', 'NumberFormat'],
		[BigInt.prototype, 'toLocaleString', 'NumberFormat'],
		[String.prototype, 'localeCompare', 'Collator'],
		[Date.prototype, 'toLocaleString', 'DateTimeFormat'],
		[Date.prototype, 'toLocaleDateString', 'DateTimeFormat'],
		[Date.prototype, 'toLocaleTimeString', 'DateTimeFormat'],
	];
	for (const [prototype, method, kind] of localeMethods) {
		const original = prototype[method];
		prototype[method] = function (...parameters) {
			intlMade.add(`Intl.${kind}`);
			return original.apply(this, parameters);
		};
	}
	let framed = false;
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = (chunk, ...rest) => {
		if (!framed && /Conversations \(\d/.test(String(chunk))) {
			framed = true;
			writeFileSync(`${report}.first-frame`, JSON.stringify(nodeModules()));
		}
		return write(chunk, ...rest);
	};
	process.on('exit', () => writeFileSync(`${report}.exit`, JSON.stringify(nodeModules())));
}
