import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join, sep} from 'node:path';

/**
 * The bundle carries the code of every library it is built from, and their licences (MIT, ISC,
 * Apache-2.0, BSD) ask that their notices travel with it. esbuild drops license comments
 * (`legalComments: 'none'` keeps the bundle lean), so this writes them in one file beside it:
 * for each package whose files went into the bundle (esbuild's metafile), its name, version,
 * declared licence and its licence file as published.
 */
export function thirdPartyNotices(metafile, root = process.cwd()) {
	const packages = new Map();
	for (const input of Object.keys(metafile.inputs)) {
		const at = input.lastIndexOf('node_modules/');
		if (at === -1) continue;
		const parts = input.slice(at + 'node_modules/'.length).split('/');
		const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
		const directory = join(root, input.slice(0, at), 'node_modules', ...name.split('/'));
		if (!packages.has(directory)) packages.set(directory, name);
	}
	const entries = [...packages].map(([directory, name]) => {
		const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
		const licenseFile = existsSync(directory) ? readdirSync(directory).find((file) => /^licen[cs]e(?:\.(?:md|txt))?$/i.test(file)) : undefined;
		const text = licenseFile ? readFileSync(join(directory, licenseFile), 'utf8').trim() : `No licence file is published with this package; its package.json declares ${manifest.license ?? 'no licence'}.`;
		return {name, version: manifest.version, license: manifest.license ?? 'UNKNOWN', text, where: directory.split(sep).join('/')};
	});
	entries.sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
	const header = 'agent-tui bundles the following packages into dist/. Their licences and notices follow.\n';
	return {
		packages: entries,
		text: `${header}\n${entries.map((entry) => `## ${entry.name} ${entry.version} (${entry.license})\n\n${entry.text}\n`).join('\n')}`,
	};
}
