import { BACKTEST_OPTION_SPECS } from "../backtest/backtestOptionSpecs.js";
import type { OptionSpec } from "../options/OptionSpec.js";
import type { PaperTradeOptions } from "./paperTrade.js";

// the backtest options a paper trader does not take: the data, the targets and the run's outputs come from the feed and the strategy
const {
  data: _data,
  time: _time,
  close: _close,
  open: _open,
  high: _high,
  low: _low,
  funding: _funding,
  position: _position,
  signal: _signal,
  outputs: _outputs,
  spreadBps: _spreadBps,
  impact: _impact,
  flatWhen: _flatWhen,
  coin: _coin,
  into: _into,
  ...PAPER_BACKTEST
} = BACKTEST_OPTION_SPECS;

/** paperTrade's own options (not backtest options). */
const PAPER_OWN = {
  coin: { unit: "coin traded (BTC, ETH, SOL, HYPE)", default: "— (required)" },
  store: { unit: "folder, or a store from openStore", default: "— (required)" },
  name: { unit: "ledger name (a folder name)", default: "<coin>-<minutes>m" },
  client: { unit: "createClient({ baseUrl, cacheTtlMs: 0 })", default: "— (client or feed)" },
  feed: { unit: "historyFeed(client) | storeFeed(store) | a PaperFeed", default: "historyFeed(client)" },
  intervalMs: { unit: "ms, a whole number of minutes", default: "60 000", scale: "ms" },
  start: { unit: "epoch ms of the first bar's open", default: "the latest closed bar (or the ledger's)" },
  priceMetric: { unit: "metric id", default: "<coin>_price" },
  metrics: { unit: "metric ids the strategy reads", default: "a composite's components; none for a function" },
  chargeFunding: { unit: "boolean", default: "false" },
  params: { unit: "parameter -> value", default: "{}" },
  best: { unit: "a sweep's best()", default: "none" },
  pollMs: { unit: "ms between polls", default: "a quarter interval, at most 15 000" },
  staleAfterMs: { unit: "ms without a new bar", default: "3 intervals" },
  conformance: { unit: "{ compositeMetric, weights?, windowBars?, tolerance? }", default: "off" },
  band: { unit: "{ returns, level?, horizonBars?, draws?, meanBlockBars?, seed? }", default: "off" },
  bars: { unit: "bars in the ledger", default: "never stop" },
  signal: { unit: "AbortSignal", default: "none" },
  clock: { unit: "() => epoch ms (wall clock)", default: "Date.now" },
} as const satisfies Readonly<Record<string, OptionSpec>>;

/**
 * Every option of {@link paperTrade}: the backtest options it passes through (as backtest's,
 * with their units and scales) and its own. checkOptions refuses an unknown key with the nearest
 * name (`paperTrade: unknown option stoploss; did you mean stopLoss?`) and a value in the wrong
 * scale (`stopLoss: 2` -> 0.02). The compiler holds the keys equal to PaperTradeOptions'.
 * @internal
 */
export const PAPER_TRADE_OPTION_SPECS = { ...PAPER_BACKTEST, ...PAPER_OWN } as const satisfies Record<keyof PaperTradeOptions, OptionSpec>;

/** The options of paperTrade that are not backtest options (the rest go to the engine as backtest's). @internal */
export const PAPER_OWN_OPTIONS: ReadonlySet<string> = new Set(Object.keys(PAPER_OWN));
