/** Request counts per route pattern, for the benchmark of request budgets. */
export type RequestStats = {requests: number; byRoute: Record<string, number>; reset(): void};

export function createRequestStats(): RequestStats & {count(key: string): void} {
	const stats = {
		requests: 0,
		byRoute: {} as Record<string, number>,
		reset() {
			stats.requests = 0;
			stats.byRoute = {};
		},
		count(key: string) {
			stats.requests++;
			stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
		},
	};
	return stats;
}
