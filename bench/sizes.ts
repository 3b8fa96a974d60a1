/** How big each measurement runs. `--tiny` is for the test suite's smoke run: it proves the bench works, not the targets. */
export type Sizes = {
	ingestFrames: number;
	frameCostCounts: readonly number[];
	frameCostPresses: number;
	timelineEvents: number;
	trafficSeconds: number;
	followRate: number;
	requestConversations: number;
	requestRunSeconds: number;
	longSessionHours: number;
	longSessionRate: number;
	keepEvents: number;
	/** Events of the stopped conversation read headless from the app server's stored copy. */
	storedHistoryEvents: number;
	/** Simulated minutes of the bounded-memory follow (stored.ts). */
	storedFollowMinutes: number;
	/** Events of a real conversation's size mix followed through the dashboard (real-stream.ts). */
	realStreamEvents: number;
	/** How many a second the agent server writes them. */
	realStreamRate: number;
	/** The pause before a traffic measurement, for the dashboard to load and go quiet (the smoke run only proves the rows come out). */
	quietMs: number;
	/** How long after the real stream's burst its resident memory is read. */
	realStreamLaterSeconds: number;
	/** The follower's resident memory is read after this many events and after that many (follower.ts). */
	followerEvents: readonly [number, number];
	tiny: boolean;
};

export const fullSizes: Sizes = {
	ingestFrames: 60_000,
	frameCostCounts: [10, 1_000, 10_000, 100_000],
	frameCostPresses: 200,
	timelineEvents: 100_000,
	trafficSeconds: 5,
	followRate: 200,
	requestConversations: 1_000,
	requestRunSeconds: 65,
	longSessionHours: 1,
	longSessionRate: 50,
	keepEvents: 100_000,
	storedHistoryEvents: 2_500,
	storedFollowMinutes: 10,
	realStreamEvents: 50_000,
	realStreamRate: 500,
	quietMs: 2500,
	realStreamLaterSeconds: 10,
	followerEvents: [10_000, 100_000],
	tiny: false,
};

export const tinySizes: Sizes = {
	ingestFrames: 2_000,
	frameCostCounts: [10, 200],
	frameCostPresses: 5,
	timelineEvents: 2_000,
	trafficSeconds: 1,
	followRate: 50,
	requestConversations: 150,
	requestRunSeconds: 2,
	longSessionHours: 0.02,
	longSessionRate: 50,
	keepEvents: 1_000,
	storedHistoryEvents: 250,
	storedFollowMinutes: 1,
	realStreamEvents: 1_500,
	realStreamRate: 500,
	quietMs: 500,
	realStreamLaterSeconds: 2,
	followerEvents: [500, 2_000],
	tiny: true,
};
