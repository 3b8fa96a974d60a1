import {ConfigError} from '../config/errors.js';
import type {Warn} from '../config/file-permissions.js';
import {configFilePath} from '../config/paths.js';
import {listProfiles, resolveProfile, sameAccount} from '../config/profiles.js';
import type {ResolvedConfig} from '../config/resolve.js';
import {errorMessage, KeyRejectedError} from '../wire/errors.js';
import {setRequestDeadline} from '../wire/http.js';
import {profileConversationTable, type ProfileConversation} from './conversation-table.js';
import {conversationCause} from './conversation-cause.js';
import {listedSnoozedUntil, snoozeBookOf} from './snooze.js';
import {errorCauses, parseCauseLimit, readConversations, treeOrder} from './conversations.js';
import {errorCauseJson} from '../wire/error-classification.js';
import {normalizeId} from '../wire/ids.js';
import {requestDeadline} from './deadline.js';
import {exitCodeFor, ExitCode, UsageError} from './exit-codes.js';
import type {CommandFlags} from './flags.js';
import {addSecret, note, printError, printLine, printText, type Io} from './io.js';
import {toJson} from './json-output.js';
import type {HeadlessCommand} from './registry.js';
import {ageClockJson} from '../state/age-basis.js';
import {listingClock, noteAgeBasis} from './listing-clock.js';
import {clockOf, openServer, type Server} from './server.js';
import {conversationMatchesStatus, parseStatusFilter, unknownStatusWarning} from './status-filter.js';

/**
 * `conversations --all-profiles`: every profile of the config file, each opened as `--profile
 * NAME` would open it (its own server, key, request budget and clock), read at the same time, and
 * listed once: JSON rows carry their `profile`, the table a SERVER column. Two profiles for the
 * same server and key are one account: it is read once, under the first (the other is named on
 * stderr), so no conversation is listed twice. A profile that cannot
 * be read is said on stderr with its name and the others are still listed; the exit code is then
 * that failure's (rows on stdout are complete for every profile that answered).
 */

type ProfileResult = {profile: string; rows: ProfileConversation[]} | {profile: string; error: unknown};

export async function runOnEveryProfile(command: HeadlessCommand, _args: readonly string[], flags: CommandFlags, io: Io, warn: Warn): Promise<number> {
	if (command.name !== 'conversations') throw new UsageError(`--all-profiles is for the dashboard and conversations, not ${command.name}`);
	const profiles = listProfiles(process.env, warn);
	if (profiles.length === 0) throw new ConfigError(`--all-profiles lists the profiles of ${configFilePath(process.env)}, and it has none (see the readme: "Profiles")`);
	setRequestDeadline(requestDeadline(flags));
	const filter = parseStatusFilter(flags.status);
	const warning = unknownStatusWarning(filter);
	if (warning) note(io, warning);

	// Each account once: a profile for the same server and key as an earlier one is said, not read again.
	const targets: Target[] = [];
	for (const target of await Promise.all(profiles.map(({name}) => resolveTarget(name, warn)))) {
		const twin = 'config' in target ? targets.find((other) => 'config' in other && sameAccount(other.config, target.config)) : undefined;
		if (twin) note(io, `profile ${target.profile} is the same server and key as profile ${twin.profile}: its conversations are listed once, as ${twin.profile}'s`);
		else targets.push(target);
	}
	const causeLimit = parseCauseLimit(flags.causes);
	const results = await Promise.all(targets.map((target) => ('config' in target ? readProfile(target, io, causeLimit) : target)));
	const all = results.flatMap((result) => ('rows' in result ? result.rows : []));
	const rows = all.filter((row) => !filter || conversationMatchesStatus(row.conversation, filter));
	if (flags.json) printLine(io, toJson(rows.map((row) => ({profile: row.profile, ...row.conversation, cause: conversationCause(row.conversation, row.now, row.cause), error_cause: row.cause ? errorCauseJson(row.cause) : null, snoozed_until: row.snoozedUntil ?? null, ...(row.basis ? ageClockJson(row.basis) : {})})), io.secrets));
	else for (const line of profileConversationTable(inTreeOrder(rows), io.stdout.isTTY ? io.stdout.columns : undefined)) printText(io, line);

	let code: ExitCode = ExitCode.ok;
	for (const result of results) {
		if (!('error' in result)) continue;
		printError(io, new Error(`profile ${result.profile}: ${errorMessage(result.error)}`));
		if (code === ExitCode.ok) code = exitCodeFor(result.error);
	}
	if (!flags.json && rows.length === 0) note(io, all.length === 0 ? 'no conversations' : `none of the ${all.length} conversations has that status`);
	return code;
}

type ServerConfig = Extract<ResolvedConfig, {kind: 'server'}>;
type Target = {profile: string; config: ServerConfig} | {profile: string; error: unknown};

/** A profile's server and key, as `--profile NAME` would resolve them. */
async function resolveTarget(name: string, warn: Warn): Promise<Target> {
	try {
		const config = await resolveProfile(name, process.env, warn);
		if (config.kind !== 'server') throw new ConfigError(`profile "${name}" names no server (no baseUrl)`);
		return {profile: name, config};
	} catch (error) {
		return {profile: name, error};
	}
}

async function readProfile({profile: name, config}: {profile: string; config: ServerConfig}, io: Io, causeLimit: number): Promise<ProfileResult> {
	let server: Server | undefined;
	try {
		addSecret(io, config.apiKey);
		server = await openServer(config, profileIo(io, name));
		const conversations = await readConversations(server);
		// Why the errored ones failed, from each server.
		const causes = await errorCauses(server, profileIo(io, name), conversations, causeLimit);
		// Ages by each server's own clock, when its listing does not dispute it (listing-clock.ts).
		const {now, basis} = listingClock(clockOf(server), conversations);
		if (conversations.length > 0) noteAgeBasis(profileIo(io, name), basis);
		const snoozes = snoozeBookOf(server);
		return {profile: name, rows: conversations.map((conversation) => {
			const key = normalizeId(conversation.id);
			// Not read (older than --causes, or the read failed) stays undefined: `cause` says error:unread.
			return {profile: name, conversation, now, basis, snoozedUntil: listedSnoozedUntil(snoozes, conversation, now), ...(causes.has(key) ? {cause: causes.get(key) ?? null} : {})};
		})};
	} catch (error) {
		if (error instanceof KeyRejectedError) error.message += `; the key sent is profile "${name}"'s`;
		return {profile: name, error};
	} finally {
		await server?.close();
	}
}

/** Each profile's rows with its sub-conversations under their parent (conversations.ts treeOrder), profile after profile. */
function inTreeOrder(rows: readonly ProfileConversation[]): ProfileConversation[] {
	const byProfile = new Map<string, ProfileConversation[]>();
	for (const row of rows) {
		const own = byProfile.get(row.profile);
		if (own) own.push(row);
		else byProfile.set(row.profile, [row]);
	}
	return [...byProfile.values()].flatMap((own) => {
		const byConversation = new Map(own.map((row) => [row.conversation, row]));
		return treeOrder(own.map((row) => row.conversation)).map((conversation) => byConversation.get(conversation)!);
	});
}

/** The same streams and secrets, with each stderr line naming the profile it is about. */
function profileIo(io: Io, name: string): Io {
	const stderr = {
		write(chunk: string | Uint8Array, ...rest: unknown[]) {
			const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
			return (io.stderr.write as (text: string, ...rest: unknown[]) => boolean)(text.replaceAll(/^agent-tui: /gm, `agent-tui: ${name}: `), ...rest);
		},
	} as unknown as NodeJS.WritableStream;
	return {...io, stderr};
}
