import type { Panel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readRealFixture } from "./readRealFixture.js";

/** Names of the real candle sets in `fixtures/real` (see its README for source and license). */
export const REAL_CANDLES = ["coinbase-btc-4h", "coinbase-eth-4h", "coinbase-eth-1d", "binance-eth-5m"] as const;

/** One of {@link REAL_CANDLES}. */
export type RealCandlesName = (typeof REAL_CANDLES)[number];

/**
 * Real OHLCV candles, offline: Coinbase BTC-USD and ETH-USD 4-hour bars
 * (2016-05-18 .. 2025-10-28, about 20.7k bars each, with the source's few
 * gaps), Coinbase ETH-USD daily (350 bars to 2025-10-21) and Binance.US
 * ETH-USD 5-minute bars (580, 2023-03-13 .. 15). Returns a {@link Panel}
 * with columns `open, high, low, close, volume` (USD prices, base-coin
 * volume); `time` is each bar's OPEN (epoch ms UTC): the bar is known only
 * at `time + interval` (e.g. 4 h), so shift it with `knownAfterMs` when
 * aligning with other feeds. The last bar of `coinbase-eth-1d` (2025-10-21)
 * was captured mid-day (its high and close differ from the full day built
 * from the 4 h bars); the other 349 days match the 4 h set exactly.
 * Kept as the source has it, one bad print: the `coinbase-btc-4h` bar of
 * 2017-04-15 20:00 UTC has open and low 0.06 (USD) among ~1,180 prices;
 * its close is sound, so close-to-close work is unaffected, but `next_open`
 * fills or ranges on it are not: `qualityReport(...).columns.open.jumps`
 * finds it.
 * Sync: reads a small gzipped file (a few ms).
 * Data: MIT (ta4j), see fixtures/real/README.md.
 * @throws InvalidArgumentError for an unknown name (the message lists the names)
 * @example loadRealCandles("coinbase-btc-4h").columns.close.length // 20695
 */
export function loadRealCandles(name: RealCandlesName): Panel {
  if (!(REAL_CANDLES as readonly string[]).includes(name)) {
    throw new InvalidArgumentError("name", `loadRealCandles: name must be one of ${REAL_CANDLES.join(", ")}, got ${JSON.stringify(name)}`);
  }
  return readRealFixture(name).panel;
}
