import type { Panel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readRealFixture } from "./readRealFixture.js";

/** Names of the real Hyperliquid funding sets in `fixtures/real`. */
export const REAL_FUNDING = ["hyperliquid-btc-2024", "hyperliquid-btc-2023"] as const;

/** One of {@link REAL_FUNDING}. */
export type RealFundingName = (typeof REAL_FUNDING)[number];

/**
 * Real Hyperliquid BTC perpetual funding, offline, as a {@link Panel}:
 * - `"hyperliquid-btc-2024"`: hourly `mark_price` (USD) and `funding` (the
 *   hourly rate, decimal: 1.25e-5 = 0.00125 % per hour), 2024-01-01 00:00 ..
 *   2024-02-15 17:00 UTC, 1 098 hours (BSD-3-Clause, fractal-defi);
 * - `"hyperliquid-btc-2023"`: `funding` (decimal rate per funding interval) and
 *   `premium`, 2023-05-12 .. 2023-07-17, 8-hourly until 2023-06-08 then
 *   hourly; times as Hyperliquid sent them, a few ms after the hour (MIT).
 * Longs pay positive funding. See fixtures/real/README.md for sources.
 * Timing (measured against Coinbase's real 4 h closes, see the tests): the
 * 2024 `mark_price` stamped t is the price at t + 1 h (the close of the hour
 * that starts at t), so it is known only at t + 1 h: align it with
 * `knownAfterMs: 3_600_000` (nothing is shifted here).
 * @throws InvalidArgumentError for an unknown name (the message lists the names)
 * @example loadRealFunding("hyperliquid-btc-2024").columns.funding[0] // 0.0000617991
 */
export function loadRealFunding(name: RealFundingName): Panel {
  if (!(REAL_FUNDING as readonly string[]).includes(name)) {
    throw new InvalidArgumentError("name", `loadRealFunding: name must be one of ${REAL_FUNDING.join(", ")}, got ${JSON.stringify(name)}`);
  }
  return readRealFixture(name).panel;
}
