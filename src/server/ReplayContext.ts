import { simulateMarket, type SimMarket } from "../sim/market.js";

/** What a request handler sees: the simulated market and the current minute. */
export interface ReplayContext {
  readonly market: SimMarket;
  /** Index of the current minute (the last bar) in the market's arrays. */
  readonly index: number;
  /** The clock's reading for this request, epoch ms. */
  readonly now: number;
  readonly seed: number;
  /** ISO 8601 string of bar i's time (cached). */
  iso(i: number): string;
}

/**
 * Holds the simulated market for one server and extends it as the clock moves
 * (the simulator is prefix-stable, so extending never changes the past).
 */
export class MarketClock {
  private market: SimMarket;
  private isoCache: (string | undefined)[] = [];

  constructor(
    readonly seed: number,
    readonly start: number,
    private readonly clock: () => number,
  ) {
    this.market = simulateMarket({ seed, start, minutes: this.minutesNeeded(clock()) });
  }

  private minutesNeeded(now: number): number {
    const idx = Math.floor((now - this.start) / 60_000);
    return Math.ceil((idx + 2) / 1440) * 1440;
  }

  /** The context of a request arriving now. */
  context(): ReplayContext {
    const now = this.clock();
    let index = Math.floor((now - this.start) / 60_000);
    if (index >= this.market.minutes) {
      // grown by half at least: a clock that keeps moving (live mode) re-simulates O(log) times, not once a day
      const grown = Math.ceil((this.market.minutes * 1.5) / 1440) * 1440;
      this.market = simulateMarket({ seed: this.seed, start: this.start, minutes: Math.max(this.minutesNeeded(now), grown) });
      this.isoCache = [];
    }
    index = Math.max(0, Math.min(index, this.market.minutes - 1));
    const market = this.market;
    const cacheRef = this.isoCache;
    return {
      market,
      index,
      now,
      seed: this.seed,
      iso: (i) => (cacheRef[i] ??= new Date(market.time[i] as number).toISOString()),
    };
  }
}
