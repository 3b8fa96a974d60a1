import {setUnreadableRows} from './unreadable-rows.js';
import {type FaultSwitches, type NewEventRoutes, newEventRouteModes} from './fault-switches.js';
import {windowDescription} from './rate-limit-window.js';
import type {World} from './world.js';

export type HttpFault = {kind: 'rate-limit'; retryAfterSeconds: number; limit?: number; resetAtMs?: number; description?: string} | {kind: 'server-error'; status: number};
export type FrameFault = 'malformed' | 'invalid-utf8';

export class FaultState {
	private rateLimited = 0;
	private perSecond = 0;
	private windowStart = 0;
	private windowCount = 0;
	private retryAfterSeconds = 1;
	private windowLimit = 0;
	private windowMs = 60_000;
	private longWindowStart = 0;
	private longWindowCount = 0;
	/** 429s the window limiter has answered (a test counts them). */
	windowRefusals = 0;
	private failing = 0;
	private failStatus = 503;
	latencyMs = 0;
	private malformed = 0;
	private invalidUtf8 = 0;
	silent = false;
	refuseSockets = false;
	newEventRoutes: NewEventRoutes = 'present';
	/** Set by the socket layer. */
	onDropSockets: () => void = () => {};

	constructor(private readonly world: World) {}

	/** The object handed to tests: plain functions, safe to destructure. */
	readonly switches: FaultSwitches = {
		dropSockets: () => this.onDropSockets(),
		requestsPerSecond: (n) => {
			this.perSecond = Math.max(0, Math.floor(n));
			this.windowCount = 0;
		},
		requestsPerWindow: ({limit, windowMs}) => {
			this.windowLimit = Math.max(0, Math.floor(limit));
			this.windowMs = Math.max(1000, Math.floor(windowMs));
			this.longWindowStart = 0;
			this.longWindowCount = 0;
			this.windowRefusals = 0;
		},
		rateLimit: ({count, retryAfterSeconds}) => {
			this.rateLimited = Math.max(0, Math.floor(count));
			this.retryAfterSeconds = Math.max(0, retryAfterSeconds);
		},
		serverErrors: ({count, status}) => {
			this.failing = Math.max(0, Math.floor(count));
			this.failStatus = status && status >= 500 && status <= 599 ? status : 503;
		},
		setLatency: (ms) => {
			this.latencyMs = Math.max(0, ms);
		},
		malformedFrames: (count) => {
			this.malformed = Math.max(0, Math.floor(count));
		},
		invalidUtf8Frames: (count) => {
			this.invalidUtf8 = Math.max(0, Math.floor(count));
		},
		silentSockets: (on) => {
			this.silent = on;
		},
		refuseSockets: (on) => {
			this.refuseSockets = on;
		},
		hostileText: (on) => {
			this.world.hostile = on;
		},
		interruptMissing: (status) => {
			this.world.interruptMissing = status === 404 || status === 405 ? status : 0;
		},
		noTrajectory: (on) => {
			this.world.noTrajectory = on;
		},
		trajectoryPage: (on) => {
			this.world.trajectoryPage = on;
		},
		gitMissingFolder: (mode) => {
			this.world.gitMissingFolder = mode;
		},
		newEventRoutes: (mode) => {
			this.newEventRoutes = mode;
		},
		gitQueryRoutes: (on) => {
			this.world.gitQueryRoutes = on;
		},
		appGitRoutes: (on) => {
			this.world.appGitRoutes = on;
		},
		appDownload: (on) => {
			this.world.appDownload = on;
		},
		noStreamStart: (on) => {
			this.world.noStreamStart = on;
		},
		storedCopyLags: (on) => {
			this.world.storedCopyHeld = on ? new Map(this.world.conversationList().map((conversation) => [conversation.id, this.world.events(conversation).length])) : null;
		},
		unreadableRows: (count) => setUnreadableRows(this.world, count),
		reset: () => {
			setUnreadableRows(this.world, 0);
			this.rateLimited = 0;
			this.perSecond = 0;
			this.windowLimit = 0;
			this.failing = 0;
			this.latencyMs = 0;
			this.malformed = 0;
			this.invalidUtf8 = 0;
			this.silent = false;
			this.refuseSockets = false;
			this.newEventRoutes = 'present';
			this.world.hostile = false;
			this.world.interruptMissing = 0;
			this.world.noTrajectory = false;
			this.world.trajectoryPage = false;
			this.world.gitMissingFolder = 'empty';
			this.world.gitQueryRoutes = true;
			this.world.appGitRoutes = true;
			this.world.appDownload = true;
			this.world.noStreamStart = false;
			this.world.storedCopyHeld = null;
		},
	};

	/** Consumes one HTTP fault, rate limiting first (a gateway answers before the service does). */
	takeHttpFault(path = ''): HttpFault | null {
		if (this.perSecond > 0) {
			const now = Date.now();
			const window = Math.floor(now / 1000) * 1000;
			if (window !== this.windowStart) {
				this.windowStart = window;
				this.windowCount = 0;
			}
			this.windowCount++;
			if (this.windowCount > this.perSecond) {
				const resetAtMs = window + 1000;
				return {kind: 'rate-limit', retryAfterSeconds: Math.floor((resetAtMs - now) / 1000), limit: this.perSecond, resetAtMs};
			}
		}
		// The app server's limiter (its middleware); an agent server (`/runtime/…`) is another server.
		const windowed = path.startsWith('/runtime/') ? null : this.#windowFault();
		if (windowed) return windowed;
		if (this.rateLimited > 0) {
			this.rateLimited--;
			return {kind: 'rate-limit', retryAfterSeconds: this.retryAfterSeconds};
		}
		if (this.failing > 0) {
			this.failing--;
			return {kind: 'server-error', status: this.failStatus};
		}
		return null;
	}

	/** The window limiter (requestsPerWindow): upstream's FixedWindowRateLimiter over Redis. */
	#windowFault(): HttpFault | null {
		if (this.windowLimit <= 0) return null;
		const now = Date.now();
		if (now >= this.longWindowStart + this.windowMs) {
			this.longWindowStart = now;
			this.longWindowCount = 0;
		}
		this.longWindowCount++;
		if (this.longWindowCount <= this.windowLimit) return null;
		this.windowRefusals++;
		const resetAtMs = this.longWindowStart + this.windowMs;
		return {kind: 'rate-limit', retryAfterSeconds: Math.floor((resetAtMs - now) / 1000), limit: this.windowLimit, resetAtMs, description: windowDescription(this.windowLimit, this.windowMs)};
	}

	takeFrameFault(): FrameFault | null {
		if (this.malformed > 0) {
			this.malformed--;
			return 'malformed';
		}
		if (this.invalidUtf8 > 0) {
			this.invalidUtf8--;
			return 'invalid-utf8';
		}
		return null;
	}

	/**
	 * Applies a JSON body of `POST /_sim/faults`: the same names as the switches, e.g.
	 * `{"rateLimit": {"count": 3, "retryAfterSeconds": 2}, "hostileText": true, "dropSockets": true}`.
	 * `latency` is accepted as an alias of `setLatency`. `reset` runs first.
	 */
	applyJson(body: Record<string, unknown>): string[] {
		const applied: string[] = [];
		const s = this.switches;
		const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number(value));
		if (body.reset === true) {
			s.reset();
			applied.push('reset');
		}
		const rate = body.rateLimit as {count?: unknown; retryAfterSeconds?: unknown} | undefined;
		if (rate && typeof rate === 'object') {
			s.rateLimit({count: number(rate.count) || 0, retryAfterSeconds: number(rate.retryAfterSeconds ?? 1) || 0});
			applied.push('rateLimit');
		}
		const windowed = body.requestsPerWindow as {limit?: unknown; windowMs?: unknown} | undefined;
		if (windowed && typeof windowed === 'object') {
			s.requestsPerWindow({limit: number(windowed.limit) || 0, windowMs: number(windowed.windowMs ?? 60_000) || 60_000});
			applied.push('requestsPerWindow');
		}
		if (body.requestsPerSecond !== undefined) {
			s.requestsPerSecond(number(body.requestsPerSecond) || 0);
			applied.push('requestsPerSecond');
		}
		const errors = body.serverErrors as {count?: unknown; status?: unknown} | undefined;
		if (errors && typeof errors === 'object') {
			s.serverErrors({count: number(errors.count) || 0, status: errors.status === undefined ? undefined : number(errors.status)});
			applied.push('serverErrors');
		}
		const latency = body.setLatency ?? body.latency;
		if (latency !== undefined) {
			s.setLatency(number(latency) || 0);
			applied.push('setLatency');
		}
		if (body.malformedFrames !== undefined) {
			s.malformedFrames(number(body.malformedFrames) || 0);
			applied.push('malformedFrames');
		}
		if (body.invalidUtf8Frames !== undefined) {
			s.invalidUtf8Frames(number(body.invalidUtf8Frames) || 0);
			applied.push('invalidUtf8Frames');
		}
		if (typeof body.silentSockets === 'boolean') {
			s.silentSockets(body.silentSockets);
			applied.push('silentSockets');
		}
		if (typeof body.refuseSockets === 'boolean') {
			s.refuseSockets(body.refuseSockets);
			applied.push('refuseSockets');
		}
		if (body.unreadableRows !== undefined) {
			s.unreadableRows(number(body.unreadableRows) || 0);
			applied.push('unreadableRows');
		}
		if (typeof body.hostileText === 'boolean') {
			s.hostileText(body.hostileText);
			applied.push('hostileText');
		}
		if (body.interruptMissing !== undefined) {
			const status = number(body.interruptMissing);
			s.interruptMissing(status === 404 || status === 405 ? status : 0);
			applied.push('interruptMissing');
		}
		if (typeof body.noTrajectory === 'boolean') {
			s.noTrajectory(body.noTrajectory);
			applied.push('noTrajectory');
		}
		if (typeof body.trajectoryPage === 'boolean') {
			s.trajectoryPage(body.trajectoryPage);
			applied.push('trajectoryPage');
		}
		if (body.gitMissingFolder === 'empty' || body.gitMissingFolder === 'error') {
			s.gitMissingFolder(body.gitMissingFolder);
			applied.push('gitMissingFolder');
		}
		if (typeof body.newEventRoutes === 'string' && (newEventRouteModes as readonly string[]).includes(body.newEventRoutes)) {
			s.newEventRoutes(body.newEventRoutes as NewEventRoutes);
			applied.push('newEventRoutes');
		}
		if (typeof body.gitQueryRoutes === 'boolean') {
			s.gitQueryRoutes(body.gitQueryRoutes);
			applied.push('gitQueryRoutes');
		}
		if (typeof body.appGitRoutes === 'boolean') {
			s.appGitRoutes(body.appGitRoutes);
			applied.push('appGitRoutes');
		}
		if (typeof body.appDownload === 'boolean') {
			s.appDownload(body.appDownload);
			applied.push('appDownload');
		}
		if (typeof body.noStreamStart === 'boolean') {
			s.noStreamStart(body.noStreamStart);
			applied.push('noStreamStart');
		}
		if (typeof body.storedCopyLags === 'boolean') {
			s.storedCopyLags(body.storedCopyLags);
			applied.push('storedCopyLags');
		}
		if (body.dropSockets === true) {
			s.dropSockets();
			applied.push('dropSockets');
		}
		return applied;
	}

	snapshot(): Record<string, unknown> {
		return {
			rateLimitRemaining: this.rateLimited,
			requestsPerWindow: this.windowLimit > 0 ? windowDescription(this.windowLimit, this.windowMs) : null,
			windowRefusals: this.windowRefusals,
			retryAfterSeconds: this.retryAfterSeconds,
			serverErrorsRemaining: this.failing,
			serverErrorStatus: this.failStatus,
			latencyMs: this.latencyMs,
			malformedFramesRemaining: this.malformed,
			invalidUtf8FramesRemaining: this.invalidUtf8,
			silentSockets: this.silent,
			refuseSockets: this.refuseSockets,
			hostileText: this.world.hostile,
			interruptMissing: this.world.interruptMissing,
			noTrajectory: this.world.noTrajectory,
			trajectoryPage: this.world.trajectoryPage,
			gitMissingFolder: this.world.gitMissingFolder,
			newEventRoutes: this.newEventRoutes,
			gitQueryRoutes: this.world.gitQueryRoutes,
			appGitRoutes: this.world.appGitRoutes,
			appDownload: this.world.appDownload,
			noStreamStart: this.world.noStreamStart,
			storedCopyLags: this.world.storedCopyHeld !== null,
		};
	}
}
