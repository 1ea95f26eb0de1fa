/**
 * A paper trader in its own process, for the kill -9 tests and scripts/paperLive.ts:
 *   node --import tsx test/paper/paperChild.ts (the tests start its esbuild bundle: test/support/bundleChild.ts) <baseUrl> <storeDir> <case> <bars>
 * Runs the case's strategy until the ledger holds <bars> bars, then exits 0. Prints nothing.
 */
import { createClient, paperTrade } from "../../src/index.js";
import { paperCase } from "./paperCases.js";

const [url, store, name, bars] = process.argv.slice(2) as [string, string, string, string];
const client = createClient({ baseUrl: url, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000, retries: 8, retryDelayMs: 5, maxRetryDelayMs: 50, timeoutMs: 2_000 });
const c = paperCase(name);
const paper = await paperTrade(c.strategy, { ...c.options, client, store, bars: Number(bars), pollMs: 10, staleAfterMs: 2_000 });
await paper.run();
paper.close();
