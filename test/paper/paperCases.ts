import type { PaperStrategy, PaperTradeOptions } from "../../src/index.js";
import { START, trend } from "./helpers.js";

/** The strategies of the done-when runs, by name: `<strategy>-<1m|1h>`. */
export function paperCase(name: string): { strategy: PaperStrategy; options: Omit<PaperTradeOptions, "client" | "store"> } {
  const hourly = name.endsWith("-1h");
  const intervalMs = hourly ? 3_600_000 : 60_000;
  const start = START - 20 * intervalMs;
  const common = { coin: "BTC", intervalMs, start, name } as const;
  if (name.startsWith("function")) return { strategy: trend, options: { ...common, params: { n: 12 }, feeBps: 5, slippageBps: 1 } };
  if (name.startsWith("composite")) {
    return {
      strategy: {
        kind: "composite",
        threshold: 0.05,
        regimes: { wild: (c) => Float64Array.from(c["btc_momentum_5m_pct"] as Float64Array, (m) => (Math.abs(m) > 0.3 ? 1 : 0)) },
      },
      options: { ...common, params: { regime: "wild" }, feeBps: 4 },
    };
  }
  if (name.startsWith("stops")) return { strategy: trend, options: { ...common, params: { n: 6 }, feeBps: 5, stopLoss: hourly ? 0.01 : 0.002, chargeFunding: true } };
  throw new Error(`no paper case ${name}`);
}
