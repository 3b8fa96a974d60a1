import {writeFileSync} from 'node:fs';

/**
 * Preloaded into the built CLI by test/cli-loads.test.ts (NODE_OPTIONS=--import=…): writes which
 * of Node's own modules were loaded to `$AGENT_TUI_REPORT_MODULES` at the first frame that lists
 * conversations (`<file>.first-frame`), and again as the process exits (`<file>.exit`).
 */
const report = process.env.AGENT_TUI_REPORT_MODULES;
const nodeModules = () => process.moduleLoadList.filter((name) => name.startsWith('NativeModule ') && !name.includes('internal/')).map((name) => name.slice('NativeModule '.length));
if (report) {
	let framed = false;
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = (chunk, ...rest) => {
		if (!framed && /Conversations \([1-9]/.test(String(chunk))) {
			framed = true;
			writeFileSync(`${report}.first-frame`, JSON.stringify(nodeModules()));
		}
		return write(chunk, ...rest);
	};
	process.on('exit', () => writeFileSync(`${report}.exit`, JSON.stringify(nodeModules())));
}
