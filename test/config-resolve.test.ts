import assert from 'node:assert/strict';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import {after, describe, test} from 'node:test';
import {readKeyFromStdin} from '../source/config/api-key.js';
import {ConfigError} from '../source/config/errors.js';
import {onceWarner} from '../source/config/file-permissions.js';
import {configDir} from '../source/config/paths.js';
import {resolveConfig, type ConfigFlags, type ResolvedConfig} from '../source/config/resolve.js';
import {ExitCode, exitCodeFor} from '../source/commands/exit-codes.js';
import {Secret} from '../source/wire/secret.js';

const root = mkdtempSync(join(tmpdir(), 'agent-tui-config-'));
after(() => rmSync(root, {recursive: true, force: true}));
let counter = 0;

/** A fresh HOME + XDG_CONFIG_HOME, optionally with a config file of the given mode. */
function setup(config?: unknown, mode = 0o600) {
	const home = join(root, `case-${counter++}`);
	const xdg = join(home, 'xdg');
	mkdirSync(join(xdg, 'agent-tui'), {recursive: true});
	const path = join(xdg, 'agent-tui', 'config.json');
	if (config !== undefined) {
		writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config), {mode});
		chmodSync(path, mode);
	}
	const env: NodeJS.ProcessEnv = {HOME: home, XDG_CONFIG_HOME: xdg};
	const warnings: string[] = [];
	return {home, xdg, path, env, warnings, warn: (message: string) => warnings.push(message)};
}

function keyFile(dir: string, name: string, content: string, mode = 0o600): string {
	const path = join(dir, name);
	writeFileSync(path, content, {mode});
	chmodSync(path, mode);
	return path;
}

function server(config: ResolvedConfig) {
	assert.equal(config.kind, 'server');
	return config as Extract<ResolvedConfig, {kind: 'server'}>;
}

async function resolveWith(flags: ConfigFlags, ctx: ReturnType<typeof setup>, readStdinKey?: () => Promise<Secret>) {
	return resolveConfig(flags, {env: ctx.env, warn: ctx.warn, readStdinKey});
}

describe('precedence: flags > env > config file', () => {
	const fileConfig = {baseUrl: 'https://file.example', apiKey: 'file-key-123'};

	const cases = [
		{name: 'the config file alone', env: {}, baseUrl: 'https://file.example', apiKey: 'file-key-123', from: 'config'},
		{name: 'env beats the config file', env: {OPENHANDS_BASE_URL: 'https://env.example/', OPENHANDS_API_KEY: 'env-key-456'}, baseUrl: 'https://env.example', apiKey: 'env-key-456', from: 'env'},
	] as const;
	for (const c of cases) {
		test(c.name, async () => {
			const ctx = setup(fileConfig);
			Object.assign(ctx.env, c.env);
			const config = server(await resolveWith({}, ctx));
			assert.equal(config.baseUrl, c.baseUrl);
			assert.equal(config.apiKey?.reveal(), c.apiKey);
			assert.equal(config.baseUrlFrom, c.from);
			assert.equal(config.apiKeyFrom, c.from);
		});
	}

	test('flags beat env', async () => {
		const ctx = setup(fileConfig);
		ctx.env.OPENHANDS_BASE_URL = 'https://env.example';
		ctx.env.OPENHANDS_API_KEY = 'env-key-456';
		const file = keyFile(ctx.home, 'key', 'flag-key-789\n');
		const config = server(await resolveWith({baseUrl: 'https://flag.example/api/v1/', apiKeyFile: file}, ctx));
		assert.equal(config.baseUrl, 'https://flag.example', 'trailing /api/v1 and slash are dropped');
		assert.equal(config.apiKey?.reveal(), 'flag-key-789', 'the trailing newline is not part of the key');
		assert.equal(config.apiKeyFrom, 'flag');
	});

	test('--api-key-stdin is a flag source', async () => {
		const ctx = setup();
		ctx.env.OPENHANDS_API_KEY = 'env-key';
		const config = server(await resolveWith({baseUrl: 'http://127.0.0.1:9', apiKeyStdin: true}, ctx, async () => new Secret('stdin-key')));
		assert.equal(config.apiKey?.reveal(), 'stdin-key');
	});

	test('a profile key is not sent to a server named elsewhere', async () => {
		const ctx = setup(fileConfig);
		const config = server(await resolveWith({baseUrl: 'https://other.example'}, ctx));
		assert.equal(config.apiKey, null);
		assert.match(ctx.warnings.join('\n'), /not sending the key/);
	});
});

describe('profiles', () => {
	const profiles = {
		defaultProfile: 'work',
		profiles: {
			work: {baseUrl: 'https://work.example', apiKeyFile: 'work.key'},
			home: {baseUrl: 'https://home.example', apiKey: 'home-key'},
		},
	};

	test('defaultProfile, with apiKeyFile relative to the config directory', async () => {
		const ctx = setup(profiles);
		keyFile(join(ctx.xdg, 'agent-tui'), 'work.key', 'work-key\n');
		const config = server(await resolveWith({}, ctx));
		assert.equal(config.baseUrl, 'https://work.example');
		assert.equal(config.apiKey?.reveal(), 'work-key');
		assert.equal(config.label, 'work (work.example)');
	});

	test('--profile NAME', async () => {
		const ctx = setup(profiles);
		const config = server(await resolveWith({profile: 'home'}, ctx));
		assert.equal(config.baseUrl, 'https://home.example');
		assert.equal(config.apiKey?.reveal(), 'home-key');
	});

	test('an unknown profile is an error naming the known ones', async () => {
		const ctx = setup(profiles);
		await assert.rejects(resolveWith({profile: 'wrok'}, ctx), (error: Error) => {
			assert.ok(error instanceof ConfigError);
			assert.match(error.message, /profile "wrok".*known profiles: work, home/);
			return true;
		});
	});

	test('a broken config file is reported without quoting it', async () => {
		const ctx = setup('{"apiKey": "sk-secret-in-broken-json"');
		await assert.rejects(resolveWith({}, ctx), (error: Error) => {
			assert.ok(error instanceof ConfigError);
			assert.match(error.message, /not valid JSON/);
			assert.doesNotMatch(error.message, /sk-secret/);
			return true;
		});
	});

	test('a misspelt key in the file is an error', async () => {
		const ctx = setup({baseUrl: 'https://x.example', apikeyFile: 'k'});
		await assert.rejects(resolveWith({}, ctx), /invalid/);
	});
});

describe('the key never stays in the environment', () => {
	test('OPENHANDS_API_KEY is deleted after reading', async () => {
		const ctx = setup();
		ctx.env.OPENHANDS_BASE_URL = 'http://127.0.0.1:9';
		ctx.env.OPENHANDS_API_KEY = 'env-key-to-delete';
		const config = server(await resolveWith({}, ctx));
		assert.equal(config.apiKey?.reveal(), 'env-key-to-delete');
		assert.ok(!('OPENHANDS_API_KEY' in ctx.env));
	});

	test('also when it is not used, and when resolution fails', async () => {
		const ctx = setup();
		ctx.env.OPENHANDS_API_KEY = 'unused';
		await resolveWith({demo: true}, ctx);
		assert.ok(!('OPENHANDS_API_KEY' in ctx.env));
		ctx.env.OPENHANDS_API_KEY = 'still-deleted';
		await assert.rejects(resolveWith({apiKey: 'x'}, ctx));
		assert.ok(!('OPENHANDS_API_KEY' in ctx.env));
	});

	test('the Secret never prints its value', async () => {
		const ctx = setup();
		ctx.env.OPENHANDS_BASE_URL = 'http://127.0.0.1:9';
		ctx.env.OPENHANDS_API_KEY = 'printable?';
		const config = server(await resolveWith({}, ctx));
		assert.doesNotMatch(JSON.stringify(config) + String(config.apiKey), /printable/);
	});
});

describe('--api-key VALUE is refused', () => {
	test('with an explanation and the usage exit code, without echoing the key', async () => {
		const ctx = setup();
		await assert.rejects(resolveWith({apiKey: 'sk-on-the-command-line'}, ctx), (error: Error) => {
			assert.ok(error instanceof ConfigError);
			assert.match(error.message, /shell history/);
			assert.match(error.message, /ps/);
			assert.doesNotMatch(error.message, /sk-on-the-command-line/);
			assert.equal(exitCodeFor(error), ExitCode.usage);
			return true;
		});
	});

	test('--api-key-file and --api-key-stdin together are a usage error', async () => {
		await assert.rejects(resolveWith({apiKeyFile: 'x', apiKeyStdin: true}, setup()), /either/);
	});
});

describe('file permissions', () => {
	test('a group/world-readable config file holding a key is warned about, once', async () => {
		const ctx = setup({baseUrl: 'https://x.example', apiKey: 'k-123'}, 0o644);
		const lines: string[] = [];
		const warn = onceWarner((line) => lines.push(line));
		await resolveConfig({}, {env: {...ctx.env}, warn});
		await resolveConfig({}, {env: {...ctx.env}, warn});
		assert.equal(lines.length, 1);
		assert.match(lines[0]!, /agent-tui: warning: the config file .*\(mode 0644\).*chmod 600/);
	});

	test('a private config file is not', async () => {
		const ctx = setup({baseUrl: 'https://x.example', apiKey: 'k-123'}, 0o600);
		await resolveWith({}, ctx);
		assert.deepEqual(ctx.warnings, []);
	});

	test('a config file without a key may be readable', async () => {
		const ctx = setup({baseUrl: 'https://x.example'}, 0o644);
		await resolveWith({}, ctx);
		assert.deepEqual(ctx.warnings, []);
	});

	test('a readable key file is warned about but still used', async () => {
		const ctx = setup();
		const file = keyFile(ctx.home, 'shared.key', 'shared-key', 0o640);
		const config = server(await resolveWith({baseUrl: 'http://127.0.0.1:9', apiKeyFile: file}, ctx));
		assert.equal(config.apiKey?.reveal(), 'shared-key');
		assert.match(ctx.warnings.join('\n'), /the API key file .*shared\.key.*\(mode 0640\)/);
	});

	test('a missing key file is a clear error', async () => {
		await assert.rejects(resolveWith({baseUrl: 'http://127.0.0.1:9', apiKeyFile: '/nonexistent/key'}, setup()), /cannot read the API key file .*no such file/);
	});
});

describe('no server', () => {
	test('nothing configured: the demo', async () => {
		assert.deepEqual(await resolveWith({}, setup()), {kind: 'demo', reason: 'unconfigured'});
	});

	test('--demo wins over a configured server', async () => {
		const ctx = setup({baseUrl: 'https://x.example'});
		assert.deepEqual(await resolveWith({demo: true}, ctx), {kind: 'demo', reason: 'flag'});
	});

	test('a key with no server is an error, not a silent demo', async () => {
		const ctx = setup();
		ctx.env.OPENHANDS_API_KEY = 'lonely-key';
		await assert.rejects(resolveWith({}, ctx), /no server/);
	});

	test('a bad base URL is a usage error', async () => {
		await assert.rejects(resolveWith({baseUrl: 'ftp://x'}, setup()), /http and https/);
		await assert.rejects(resolveWith({baseUrl: 'https://user:pw@x.example'}, setup()), /user name or password/);
	});

	test('a relative XDG_CONFIG_HOME is ignored, as the XDG spec says', () => {
		assert.equal(configDir({HOME: '/home/u', XDG_CONFIG_HOME: 'rel'}), '/home/u/.config/agent-tui');
		assert.equal(configDir({HOME: '/home/u', XDG_CONFIG_HOME: '/x'}), '/x/agent-tui');
	});
});

describe('reading the key from stdin', () => {
	test('a piped key, trimmed', async () => {
		const key = await readKeyFromStdin(Readable.from([Buffer.from('piped-key\n')]) as unknown as NodeJS.ReadStream);
		assert.equal(key.reveal(), 'piped-key');
	});

	test('empty stdin is an error', async () => {
		await assert.rejects(readKeyFromStdin(Readable.from([Buffer.from('\n')]) as unknown as NodeJS.ReadStream), /empty/);
	});
});
