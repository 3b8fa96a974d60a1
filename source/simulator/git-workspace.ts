import {repoDirFor} from '../wire/git-paths.js';

/**
 * What an agent left in its repository, for the git endpoints (docs/service-behaviour.md §3.1): the files
 * it added, deleted and updated, each with its original (committed) and modified (working tree)
 * text. Built from the repository's name, the same every time, and shaped to exercise a client:
 * a file that loses its final newline, a path with a space and non-ASCII letters, a 5,000-line
 * file changed in 12 places, and a log file holding terminal escape sequences (a title change, a
 * screen clear, a clipboard write) that must reach the screen as text.
 */

export type WorkspaceFile = {
	status: 'ADDED' | 'DELETED' | 'UPDATED';
	/** Relative to the repository directory. */
	path: string;
	original: string | null;
	modified: string | null;
};

export type Workspace = {repoDir: string; files: readonly WorkspaceFile[]};

/** Lines of the large file, and how many places in it the agent changed. */
export const largeFileLines = 5000;
export const largeFileChangedPlaces = 12;
export const largeFilePath = 'data/fixtures_table.py';
export const hostileFilePath = 'logs/agent-run.log';
export const spacedFilePath = 'docs/café menu notes.md';

const cache = new Map<string, Workspace>();

/** The workspace of a repository (`owner/name`); null when the conversation has none (not a git repository). */
export function workspaceFor(repository: string | null): Workspace | null {
	if (!repository) return null;
	const cached = cache.get(repository);
	if (cached) return cached;
	const workspace = {repoDir: repoDirFor(repository), files: buildFiles(repository)};
	cache.set(repository, workspace);
	return workspace;
}

function buildFiles(repository: string): WorkspaceFile[] {
	const name = repository.split('/').at(-1) ?? repository;
	const module = name.replaceAll(/[^a-z0-9]+/gi, '_').toLowerCase();
	return [
		{status: 'UPDATED', path: 'README.md', original: readme(name, false), modified: readme(name, true)},
		{status: 'UPDATED', path: `src/${module}/service.py`, original: service(module, false), modified: service(module, true)},
		{status: 'ADDED', path: `tests/test_${module}_service.py`, original: null, modified: serviceTest(module)},
		{status: 'DELETED', path: 'docs/legacy-setup.md', original: legacySetup(name), modified: null},
		// The agent's editor dropped the final newline: the patch must say so.
		{status: 'UPDATED', path: 'VERSION', original: '2.4.2\n', modified: '2.4.3'},
		{status: 'UPDATED', path: spacedFilePath, original: cafeNotes(false), modified: cafeNotes(true)},
		{status: 'UPDATED', path: largeFilePath, original: largeTable(false), modified: largeTable(true)},
		{status: 'ADDED', path: hostileFilePath, original: null, modified: hostileLog(name)},
	];
}

function readme(name: string, changed: boolean): string {
	const lines = [
		`# ${name}`,
		'',
		`${name} parses, validates and stores records for the billing pipeline.`,
		'',
		'## Setup',
		'',
		'```sh',
		'python -m venv .venv && . .venv/bin/activate',
		'pip install -e ".[dev]"',
		'```',
		'',
		'## Running the tests',
		'',
		'```sh',
		'pytest -q',
		'```',
		'',
		'## Configuration',
		'',
		'Set `SERVICE_URL` and `SERVICE_TOKEN` in the environment.',
		'',
	];
	if (changed) {
		lines.splice(15, 0, 'pytest -q tests/test_*_service.py   # the service tests alone');
		lines.splice(20, 1, 'Set `SERVICE_URL` and `SERVICE_TOKEN` in the environment; `SERVICE_TIMEOUT` (seconds, default 10) bounds each call.');
	}
	return lines.join('\n');
}

function service(module: string, changed: boolean): string {
	const lines = [
		'import json',
		'import urllib.request',
		'',
		'',
		`class ${pascal(module)}Service:`,
		'    def __init__(self, url, token):',
		'        self.url = url',
		'        self.token = token',
		'',
		'    def fetch(self, record_id):',
		'        request = urllib.request.Request(f"{self.url}/records/{record_id}")',
		'        request.add_header("Authorization", f"Bearer {self.token}")',
		'        with urllib.request.urlopen(request) as response:',
		'            return json.loads(response.read())',
		'',
		'    def total(self, record_ids):',
		'        total = 0',
		'        for record_id in record_ids:',
		'            total += self.fetch(record_id)["amount"]',
		'        return total',
		'',
	];
	if (changed) {
		lines.splice(5, 1, '    def __init__(self, url, token, timeout=10):');
		lines.splice(8, 0, '        self.timeout = timeout');
		lines.splice(14, 1, '        with urllib.request.urlopen(request, timeout=self.timeout) as response:');
		lines.splice(17, 4, '        total = 0', '        for record_id in record_ids:', '            record = self.fetch(record_id)', '            total += record.get("amount", 0)', '        return total');
	}
	return `${lines.join('\n')}\n`;
}

function serviceTest(module: string): string {
	const cls = `${pascal(module)}Service`;
	return [
		'from unittest import mock',
		'',
		`from ${module}.service import ${cls}`,
		'',
		'',
		'def test_total_skips_records_without_amount():',
		`    service = ${cls}("http://example.invalid", "token")`,
		'    with mock.patch.object(service, "fetch", side_effect=[{"amount": 3}, {}]):',
		'        assert service.total([1, 2]) == 3',
		'',
		'',
		'def test_timeout_defaults_to_ten_seconds():',
		`    assert ${cls}("u", "t").timeout == 10`,
		'',
	].join('\n');
}

function legacySetup(name: string): string {
	return [`# Setting up ${name} (before 2.0)`, '', '1. Install Python 2.7.', '2. Run `python setup.py develop`.', '3. Copy `config.ini.example` to `config.ini`.', ''].join('\n');
}

function cafeNotes(changed: boolean): string {
	const lines = ['# Café menu notes', '', '- Crème brûlée: 4.50 €', '- Piña colada: 6.00 €', '- Smørrebrød: 7.20 €', ''];
	if (changed) lines.splice(3, 1, '- Piña colada: 6.50 € (naïve pricing fixed)', '- Açaí bowl: 5.80 €');
	return lines.join('\n');
}

/** 5,000 lines; the modified side differs in 12 places, one of them a 300-line block. */
function largeTable(changed: boolean): string {
	const lines: string[] = ['# Generated fixture table: one record per line.', 'ROWS = ['];
	for (let index = 1; lines.length < largeFileLines - 1; index++) {
		lines.push(`    {"id": ${index}, "sku": "SKU-${String(index).padStart(5, '0')}", "price_cents": ${(index * 7919) % 100_000}, "active": ${index % 3 === 0 ? 'False' : 'True'}},`);
	}
	lines.push(']');
	if (!changed) return `${lines.join('\n')}\n`;
	// From the bottom up, so each index still points at the original line.
	for (let place = largeFileChangedPlaces - 1; place >= 0; place--) {
		const at = 200 + place * 400;
		switch (place % 4) {
			case 0:
				lines.splice(at, 1, lines[at]!.replace('"active": True', '"active": False').replace('"active": False},', '"active": False, "note": "disabled by migration"},'));
				break;
			case 1:
				if (place === 5) {
					const block = Array.from({length: 300}, (_, offset) => `    {"id": ${90_000 + offset}, "sku": "NEW-${String(offset).padStart(4, '0')}", "price_cents": ${offset * 25}, "active": True},`);
					lines.splice(at, 0, ...block);
				} else {
					lines.splice(at, 3, ...lines.slice(at, at + 3).map((line) => line.replace('"price_cents": ', '"price_cents": 1 + ')));
				}
				break;
			case 2:
				lines.splice(at, 0, `    # Records ${at - 1} and on were re-priced on 2026-11-20.`, `    {"id": ${80_000 + place}, "sku": "BUNDLE-${place}", "price_cents": 0, "active": True},`);
				break;
			default:
				lines.splice(at, 2);
		}
	}
	return `${lines.join('\n')}\n`;
}

/** Captured terminal output with the escape sequences a hostile program would print. */
function hostileLog(name: string): string {
	const ESC = '\u001B';
	const BEL = '\u0007';
	return [
		`[agent] running the ${name} test suite`,
		`${ESC}]0;pwned${BEL}window title changed by the test runner`,
		`${ESC}[2J${ESC}[Hscreen cleared here`,
		`${ESC}]52;c;cm0gLXJmIH4v${BEL}clipboard write attempt`,
		`${ESC}[31mred text${ESC}[0m and a bell${BEL}`,
		'carriage\rreturn overwrite',
		'[agent] 42 passed in 3.1s',
		'',
	].join('\n');
}

function pascal(module: string): string {
	return module
		.split('_')
		.filter(Boolean)
		.map((part) => part[0]!.toUpperCase() + part.slice(1))
		.join('');
}
