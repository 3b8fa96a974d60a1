import type {Warn} from '../config/file-permissions.js';
import {listProfiles, resolveProfile} from '../config/profiles.js';
import type {ResolvedConfig} from '../config/resolve.js';
import {openSession, type DashboardRuntime, type ProfileChoice, type Session, type SessionOptions} from '../state/dashboard-session.js';
import {publicMessage} from '../state/redact.js';
import type {Simulator} from '../simulator/server.js';
import {closeHttpAgent} from '../wire/http.js';
import {Secret} from '../wire/secret.js';
import {startDemoSimulator} from './demo-simulator.js';

/**
 * The dashboard's composition root: every server the run talks to is opened here and closed here.
 * A server is one Session (state/dashboard-session.ts): its transport, client, request budget,
 * clock estimate, health, store and alerts. The embedded simulator of a demo run is started here,
 * with the one configuration headless commands use (demo-simulator.ts). A profile switch opens
 * the next server's session and closes the previous one whole, so nothing of one server's state
 * carries over. `close()` leaves no socket, timer or server of this run behind.
 */

export type RuntimeOptions = SessionOptions & {
	/** The config file's profiles (names and servers, never keys) and how to open one, as `--profile NAME` would. */
	profiles?: readonly ProfileChoice[];
	resolveProfile?(name: string): Promise<ProfileTarget>;
	/** Where alerts are written (the real stdout, between Ink's frames). */
	write(text: string): void;
};

/** A profile's server as a switch opens it: never the demo. */
export type ProfileTarget = {baseUrl: string; apiKey: Secret | null; label: string; keySource?: string | null};

export async function openDashboardRuntime(config: ResolvedConfig, options: RuntimeOptions): Promise<DashboardRuntime> {
	const {profiles = [], resolveProfile, write, ...sessionOptions} = options;
	const secrets: string[] = [];
	const keep = (key: Secret | null) => {
		if (key && !key.isEmpty) secrets.push(key.reveal());
	};
	let simulator: Simulator | null = null;
	let session: Session;
	let profile: string | null = null;
	if (config.kind === 'demo') {
		simulator = await startDemoSimulator();
		// The demo simulator has its own key; a configured key is never sent to it.
		session = openSession(
			{baseUrl: simulator.baseUrl, apiKey: new Secret(simulator.apiKey), label: 'DEMO', demo: true, runningSandboxCap: simulator.world.options.maxRunningSandboxes},
			sessionOptions,
			write,
		);
	} else {
		keep(config.apiKey);
		profile = config.profile ?? null;
		session = openSession({baseUrl: config.baseUrl, apiKey: config.apiKey, label: config.label, keySource: keySourceOf(config), demo: false}, sessionOptions, write);
	}

	let closed = false;
	return {
		session: () => session,
		secrets,
		profiles,
		currentProfile: () => profile,
		async switchTo(name, show) {
			if (closed) return 'The dashboard is closing.';
			if (!resolveProfile) return 'Switching profiles needs a config file with profiles.';
			let next: Session;
			try {
				const target = await resolveProfile(name);
				keep(target.apiKey);
				next = openSession({...target, demo: false}, sessionOptions, write);
			} catch (error) {
				return `Cannot switch to profile "${name}": ${publicMessage(error, secrets)}`;
			}
			const previous = session;
			session = next;
			profile = name;
			show(next);
			// Closed whole once the next one shows: its budget, clock estimate, pacing and health go with it.
			await previous.close();
			return null;
		},
		async close() {
			closed = true;
			await Promise.allSettled([session.close()]);
			await simulator?.close();
			// Anything built without a transport of its own used the process's pool.
			await closeHttpAgent();
		},
	};
}

/** Where the key sent came from, as a rejected key's header says it; with none configured, that is the news. */
export function keySourceOf(config: Extract<ResolvedConfig, {kind: 'server'}>): string {
	if (config.apiKey === null) return 'no key is set: OPENHANDS_API_KEY';
	return `key from ${config.apiKeySource ?? 'OPENHANDS_API_KEY'}`;
}

/** ctrl-p: the config file's profiles in `env`, and how to open one (as `--profile NAME` would). */
export function configProfiles(env: NodeJS.ProcessEnv, warn: Warn): Pick<RuntimeOptions, 'profiles' | 'resolveProfile'> {
	let profiles: ProfileChoice[] = [];
	try {
		profiles = listProfiles(env, warn);
	} catch {
		// A broken config file was reported when the dashboard's own server was resolved.
	}
	return {
		profiles,
		async resolveProfile(name: string): Promise<ProfileTarget> {
			const resolved = await resolveProfile(name, env, warn);
			if (resolved.kind !== 'server') throw new Error(`profile "${name}" names no server`);
			return {baseUrl: resolved.baseUrl, apiKey: resolved.apiKey, label: resolved.label, keySource: keySourceOf(resolved)};
		},
	};
}
