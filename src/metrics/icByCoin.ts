import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { icDecay, type IcDecayOptions } from "./icDecay.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/** One coin's series for `icByCoin`. */
export interface CoinSignal {
  readonly signal: ArrayLike<number>;
  readonly close: ArrayLike<number>;
  /** Bar times, for duration horizons (falls back to `options.time`). */
  readonly time?: ArrayLike<number>;
}

/**
 * Time-series rank IC per coin and horizon, with confidence intervals: the
 * `icDecay` table of every coin stacked, with a `coin` column first. Coins
 * are evaluated separately (time series), not cross-sectionally.
 * @param options.horizons bars or durations, as `icDecay`; `options.time` is used for coins without their own `time`
 * @throws InvalidArgumentError with no coins, or as icDecay
 * @example icByCoin({ BTC: { signal: btc.composite, close: btcClose }, ETH: {...} }, { horizons: [12, 48] }).toDataFrame()
 */
export function icByCoin(coins: Readonly<Record<string, CoinSignal>>, options: IcDecayOptions): MetricsTable<{ coin: string[] } & ReturnType<typeof icDecay>["columns"]> {
  checkOptionsObject(options, "icByCoin", "icByCoin(coins, { horizons: [12, 48] })");
  const names = coins && typeof coins === "object" ? Object.keys(coins) : [];
  if (names.length === 0) {
    throw new InvalidArgumentError("coins", `icByCoin: coins must map at least one coin to { signal, close }, got ${String(coins)}`);
  }
  const parts = names.map((coin) => {
    const c = coins[coin] as CoinSignal;
    const time = c.time ?? options?.time;
    return icDecay(c.signal, c.close, { ...options, ...(time !== undefined ? { time } : {}) });
  });
  const out: Record<string, Float64Array | string[]> = { coin: [] };
  for (const [k, p] of parts.entries()) {
    for (let i = 0; i < p.rows; i++) (out["coin"] as string[]).push(names[k] as string);
  }
  const first = parts[0] as MetricsTable;
  for (const col of Object.keys(first.columns)) {
    const cols = parts.map((p) => (p.columns as Readonly<Record<string, Float64Array | readonly string[]>>)[col] as Float64Array | readonly string[]);
    out[col] = typeof cols[0]?.[0] === "string" ? cols.flatMap((c) => Array.from(c as readonly string[])) : Float64Array.from(cols.flatMap((c) => Array.from(c as Float64Array)));
  }
  // the columns of icDecay, stacked coin by coin, after the coin column
  return metricsTable(out) as unknown as MetricsTable<{ coin: string[] } & ReturnType<typeof icDecay>["columns"]>;
}
