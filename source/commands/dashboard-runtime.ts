import type {Warn} from '../config/file-permissions.js';
import {listProfiles, resolveProfile, sameAccount} from '../config/profiles.js';
import type {ResolvedConfig} from '../config/resolve.js';
import {
	allProfiles,
	nextSessionId,
	openSession,
	type DashboardRuntime,
	type ProfileChoice,
	type Session,
	type SessionOptions,
	type ShownSession,
} from '../state/dashboard-session.js';
import {createFleet} from '../state/fleet-store.js';
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
 * carries over. The all-servers view (`--all-profiles`, or `*` in ctrl-p) opens every profile's
 * session and shows them as one list (state/fleet-store.ts). `close()` leaves no socket, timer or
 * server of this run behind.
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

/** What is on screen: the view's session and the servers it is made of, closed together. */
type Shown = {session: ShownSession; servers: Session[]; profile: string | null; close(): Promise<void>};

/**
 * Opens the run's first view: the demo's simulator, the configured server, or (`config` null) every
 * profile of the config file at once.
 */
export async function openDashboardRuntime(config: ResolvedConfig | null, options: RuntimeOptions): Promise<DashboardRuntime> {
	const {profiles = [], resolveProfile, write, ...sessionOptions} = options;
	const secrets: string[] = [];
	const keep = (key: Secret | null) => {
		if (key && !key.isEmpty) secrets.push(key.reveal());
	};
	const single = (session: Session, profile: string | null): Shown => ({session, servers: [session], profile, close: () => session.close()});
	const profileTarget = async (name: string): Promise<ProfileTarget> => {
		if (!resolveProfile) throw new Error('switching profiles needs a config file with profiles');
		const target = await resolveProfile(name);
		keep(target.apiKey);
		return target;
	};
	const profileServer = async (name: string): Promise<Session> => openSession({...(await profileTarget(name)), demo: false}, sessionOptions, write);
	/**
	 * Every profile's server as one list; a profile that cannot be opened is left out and said, and
	 * one that reaches the same account as an earlier one (the same server and key) is said and
	 * not opened again: its conversations are listed once, and its one budget is spent once.
	 */
	const everyProfile = async (): Promise<Shown> => {
		const servers: Array<{name: string; label: string; session: Session; target: ProfileTarget}> = [];
		const failed: string[] = [];
		const twins: string[] = [];
		for (const profile of profiles) {
			try {
				const target = await profileTarget(profile.name);
				const twin = servers.find((server) => sameAccount(server.target, target));
				if (twin) twins.push(`${profile.name} is the same server and key as ${twin.name}`);
				else servers.push({name: profile.name, label: profile.label, target, session: openSession({...target, demo: false}, sessionOptions, write)});
			} catch (error) {
				failed.push(`${profile.name} (${publicMessage(error, secrets)})`);
			}
		}
		if (servers.length === 0) throw new Error(failed.length > 0 ? `no profile could be opened: ${failed.join('; ')}` : 'the config file has no profiles');
		const fleet = createFleet(servers.map(({name, label, session}) => ({name, label, store: session.store, controller: session.controller})));
		const said = [...(failed.length > 0 ? [`Left out: ${failed.join('; ')}`] : []), ...(twins.length > 0 ? [`Listed once: ${twins.join('; ')}`] : [])];
		if (said.length > 0) fleet.controller.notice?.(said.join('. '), 'warn');
		const sessions = servers.map((server) => server.session);
		return {
			session: {id: nextSessionId(), store: fleet.store, controller: fleet.controller},
			servers: sessions,
			profile: allProfiles,
			async close() {
				await fleet.controller.close();
				await Promise.allSettled(sessions.map((session) => session.close()));
			},
		};
	};

	let simulator: Simulator | null = null;
	let shown: Shown;
	if (config === null) {
		shown = await everyProfile();
	} else if (config.kind === 'demo') {
		simulator = await startDemoSimulator();
		// The demo simulator has its own key; a configured key is never sent to it.
		const demo = openSession(
			{baseUrl: simulator.baseUrl, apiKey: new Secret(simulator.apiKey), label: 'DEMO', demo: true, runningSandboxCap: simulator.world.options.maxRunningSandboxes},
			sessionOptions,
			write,
		);
		shown = single(demo, null);
	} else {
		keep(config.apiKey);
		shown = single(openSession({baseUrl: config.baseUrl, apiKey: config.apiKey, label: config.label, keySource: keySourceOf(config), demo: false}, sessionOptions, write), config.profile ?? null);
	}

	let closed = false;
	return {
		session: () => shown.session,
		servers: () => shown.servers,
		secrets,
		profiles: profiles.length >= 2 ? [{name: allProfiles, label: `every profile at once (${profiles.length})`}, ...profiles] : profiles,
		currentProfile: () => shown.profile,
		async switchTo(name, show) {
			if (closed) return 'The dashboard is closing.';
			let next: Shown;
			try {
				next = name === allProfiles ? await everyProfile() : single(await profileServer(name), name);
			} catch (error) {
				return `Cannot switch to ${name === allProfiles ? 'every profile' : `profile "${name}"`}: ${publicMessage(error, secrets)}`;
			}
			const previous = shown;
			shown = next;
			show(next.session);
			// Closed whole once the next one shows: budgets, clock estimates, pacing and health go with it.
			await previous.close();
			return null;
		},
		async close() {
			closed = true;
			await Promise.allSettled([shown.close()]);
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
