import type { MarketIntelClient } from "../api/createClient.js";
import type { BacktestOptions } from "../backtest/backtest.js";
import { resolveExecution } from "../backtest/execution.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { SweepBest, SweepValue } from "../research/SweepResult.js";
import { componentMetricIds } from "../signals/componentMetricIds.js";
import { barsFromMinutes, type ClosedBars } from "./barsFromMinutes.js";
import { BOOKED_FIELDS, PaperAccount } from "./PaperAccount.js";
import { historyFeed, type PaperFeed } from "./PaperFeed.js";
import { PaperLedger, readLedger, type LedgerHeader, type LedgerRow, type PaperEvent } from "./PaperLedger.js";
import { bindStrategy, paperParams, type BoundStrategy, type PaperBacktestOptions, type PaperStrategy } from "./paperStrategy.js";
import { reconcileLedger, type Reconciliation } from "./reconcileLedger.js";
import { seenDigest } from "./seenDigest.js";
import { conformanceLoss, type PaperConformanceOptions } from "./conformanceAlarm.js";
import { DEFAULT_WEIGHTS, type Weights } from "../signals/weights.js";
import { LedgerMismatchError } from "../errors/LedgerMismatchError.js";
import { join } from "node:path";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { PAPER_OWN_OPTIONS, PAPER_TRADE_OPTION_SPECS } from "./paperTradeOptionSpecs.js";
import { performanceBand, type PerformanceBand, type PerformanceBandOptions } from "./performanceBand.js";

/** Options of {@link paperTrade}: where the bars come from, where the ledger goes, the strategy's parameters, and the backtest options (as `backtest` takes them). */
export interface PaperTradeOptions extends PaperBacktestOptions {
  /** The coin traded (BTC, ETH, SOL, HYPE). */
  readonly coin: string;
  /** The store folder (or a store from openStore) that holds the ledger, under `paper=<name>/`. */
  readonly store: string | { readonly dir: string };
  /** Ledger name [`<coin>-<interval in minutes>m`]. */
  readonly name?: string;
  /** The live client (polled on `/v1/history`; give it `cacheTtlMs: 0`). One of client or feed. */
  readonly client?: Pick<MarketIntelClient, "history" | "baseUrl">;
  /** Where the minutes come from instead of the client: historyFeed(client) or storeFeed(store). */
  readonly feed?: PaperFeed;
  /** Bar length in ms, a whole number of minutes [60 000]. */
  readonly intervalMs?: number;
  /** Epoch ms of the first bar's open (a multiple of intervalMs) [the open of the latest closed bar when the ledger is created]. */
  readonly start?: number;
  /** Metric id of the price [`<coin>_price`]. */
  readonly priceMetric?: string;
  /** Other metric ids the strategy reads, as columns named by id [a composite's component ids (componentMetricIds); none for a function]. */
  readonly metrics?: readonly string[];
  /** Charge funding: the feed's hourly rate `<coin>_funding_rate`, per bar by fundingPerBar [false]. */
  readonly chargeFunding?: boolean;
  /** The strategy's parameters (a function's `params`; a composite's threshold, w_<component>, regime; any backtest option). */
  readonly params?: Readonly<Record<string, SweepValue>>;
  /** A sweep's best row (`sweep.best()`): its params. */
  readonly best?: SweepBest;
  /** Wait between polls of the feed, ms [a quarter interval, at most 15 000]. */
  readonly pollMs?: number;
  /** Raise a "stale" alarm after this long without a new bar, ms (wall clock) [3 intervals]. */
  readonly staleAfterMs?: number;
  /** Conformance alarm: the composite the service publishes (a feed column) against the replay of the feed's components; see conformanceLoss [off]. */
  readonly conformance?: PaperConformanceOptions;
  /**
   * Performance alarm: the backtest's bar returns (e.g. `backtest(...).returns` of the research period) and the
   * band's settings; a "performance" event when the live cumulative log return leaves the backtest's bootstrap band
   * (performanceBand: simultaneous over `horizonBars`, false-alarm rate `level`) [off].
   */
  readonly band?: PerformanceBandOptions & { readonly returns: ArrayLike<number> };
  /** Stop `run()` once the ledger holds this many bars [never]. */
  readonly bars?: number;
  /** Stops `run()`. */
  readonly signal?: AbortSignal;
  /** Wall clock for the stale alarm and `bookedAt` [Date.now]. */
  readonly clock?: () => number;
}

/** A bar-by-bar paper account on a ledger: see {@link paperTrade}. */
export interface PaperTrader {
  /** The ledger folder (`<store>/paper=<name>`). */
  readonly dir: string;
  /** Rows booked so far (bar 0 first). */
  readonly rows: readonly LedgerRow[];
  /** Events so far (alarms and notices, the ledger's event table). */
  readonly events: readonly PaperEvent[];
  /** The reconciliation done at start. */
  readonly atStart: Reconciliation;
  /** Poll the feed once and book every bar closed since the last one; returns the bars booked. */
  poll(): Promise<number>;
  /** Poll every `pollMs` until `bars` are booked, the signal fires or close() is called. */
  run(): Promise<void>;
  /** Backtest the recorded bars with the same strategy and options, and compare with the ledger bit for bit (a difference is also an event). */
  reconcile(): Reconciliation;
  /** Call `fn` with every new event (alarm or notice); returns the unsubscribe function. */
  subscribe(fn: (e: PaperEvent) => void): () => void;
  /** One line: bars, position, equity, last alarm. */
  status(): string;
  /** Stop and release the ledger's lock. */
  close(): void;
}

/** How paperTrade's options are checked where they enter (checkOptions: one strict schema, unknown keys refused with the nearest name). */
const PAPER_TRADE_CHECK: OptionsCheck = { where: "paperTrade", specs: PAPER_TRADE_OPTION_SPECS, example: 'paperTrade(fn, { coin: "BTC", client, store: "./mi-store" })' };

/**
 * Paper-trade a strategy: the strategy a user backtests (a function `(columns, params) => target
 * positions`, a composite strategy, or either with a sweep's `best()`), run bar by bar as each bar
 * closes on the live feed, booked by the backtest engine itself, one ledger row per bar.
 *
 * Each closed bar i: the bars [0, i] (built from the feed's minutes: barsFromMinutes) go through the
 * strategy exactly as `backtest` would take them (a sweep variant's options: variantOptions); the
 * target at bar i comes from the backtest's target rule over those bars only (blockTargetsInto); the
 * engine's kernel books bar i (fills, fees, slippage, funding, stops: PaperAccount, one kernel step);
 * one row (the bar, target, units traded, costs, equity, and a digest of the data the decision saw)
 * is appended to the ledger and fsynced before the next bar. So a backtest of the recorded bars
 * reproduces the ledger bit for bit (`reconcile()`, also run at start); a strategy that peeks ahead
 * decides otherwise on a prefix than on the whole and shows up as the first bar that differs.
 *
 * Restarts: the ledger's lock refuses a second process (StoreLockedError). On open, a torn last line
 * is cut off, the booked bars are replayed through the kernel with their recorded targets and must
 * give the ledger's numbers (LedgerMismatchError otherwise), then bars missed while stopped are caught
 * up from the feed (history up to 720 hours back) and flagged `late`. A bar is booked once (rows are
 * numbered; the next bar is always the ledger's length), and only from its own minutes: a bar whose
 * close minute is missing has no price (NaN), so nothing fills on it (the engine's rule) and a "gap"
 * alarm is raised; a close published later raises "gapFilled" (the row stays as the decision saw it).
 *
 * Alarms (events: `subscribe`, the ledger's events.jsonl, the CLI's lines): stale (no new bar for
 * `staleAfterMs`), resumed, gap, gapFilled, feedError (a poll that failed after the client's
 * retries), reconcile (a difference from the backtest), conformance (the service's composite left
 * the replay: new weights named), performance (the live cumulative log return left the backtest's
 * bootstrap band, `band`: see performanceBand for the rule and its false-alarm rate), restart.
 * @throws InvalidArgumentError on a bad option or strategy; StoreLockedError when another process holds the ledger; LedgerMismatchError when the booked bars do not replay to the ledger's numbers
 * @example
 * const client = createClient({ baseUrl: server.url, cacheTtlMs: 0 });
 * const paper = await paperTrade((c, p) => c.close.map((x, i) => (i >= p.n && x > c.close[i - p.n] ? 1 : 0)), { coin: "BTC", client, store: "./mi-store", params: { n: 20 }, feeBps: 5, stopLoss: 0.02 });
 * await paper.poll();      // books the bars closed since the last poll
 * paper.reconcile().equal; // true: backtest of the recorded bars = the ledger
 * paper.close();
 */
export async function paperTrade(strategy: PaperStrategy, options: PaperTradeOptions): Promise<PaperTrader> {
  const where = "paperTrade";
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("options", `${where}: options must be an object like { coin, client, store }, got ${String(options)}`);
  options = checkOptions(options, PAPER_TRADE_CHECK);
  const coin = options.coin;
  if (typeof coin !== "string" || coin === "") throw new InvalidArgumentError("coin", `${where}: coin must name the coin traded, e.g. "BTC", got ${String(coin)}`);
  const intervalMs = options.intervalMs ?? 60_000;
  if (!Number.isInteger(intervalMs) || intervalMs <= 0 || intervalMs % 60_000 !== 0) throw new InvalidArgumentError("intervalMs", `${where}: intervalMs must be a whole number of minutes in ms (60000, 3600000), got ${String(intervalMs)}`);
  const storeDir = typeof options.store === "string" ? options.store : options.store?.dir;
  if (typeof storeDir !== "string" || storeDir === "") throw new InvalidArgumentError("store", `${where}: store must be a folder (or a store from openStore) to keep the ledger in, got ${String(options.store)}`);
  const feed = options.feed ?? (options.client !== undefined ? historyFeed(options.client) : undefined);
  if (feed === undefined) throw new InvalidArgumentError("client", `${where}: give client (createClient({ baseUrl, cacheTtlMs: 0 })) or feed (historyFeed, storeFeed) to read the bars from`);
  const lower = coin.toLowerCase();
  const priceMetric = options.priceMetric ?? `${lower}_price`;
  const isComposite = typeof strategy === "object" && strategy !== null;
  const metrics = [...(options.metrics ?? (isComposite ? Object.values(componentMetricIds(coin)) : []))];
  const fundingMetric = options.chargeFunding === true ? `${lower}_funding_rate` : undefined;
  if (fundingMetric !== undefined && !metrics.includes(fundingMetric)) metrics.push(fundingMetric);
  const conformance = options.conformance;
  if (conformance !== undefined) {
    if (typeof conformance !== "object" || conformance === null || typeof conformance.compositeMetric !== "string") {
      throw new InvalidArgumentError("conformance", `${where}: conformance must be { compositeMetric, weights?, windowBars?, tolerance? }, got ${String(conformance)}`);
    }
    for (const id of [conformance.compositeMetric, ...Object.values(componentMetricIds(coin))]) if (!metrics.includes(id)) metrics.push(id);
    const w = conformance.windowBars ?? 30;
    if (!Number.isInteger(w) || w < 2) throw new InvalidArgumentError("conformance.windowBars", `${where}: conformance.windowBars must be an integer >= 2, got ${String(w)}`);
    const tol = conformance.tolerance ?? 1e-9;
    if (!(tol >= 0)) throw new InvalidArgumentError("conformance.tolerance", `${where}: conformance.tolerance must be >= 0, got ${String(tol)}`);
  }
  const bandOptions = options.band;
  if (bandOptions !== undefined && (typeof bandOptions !== "object" || bandOptions === null || bandOptions.returns === undefined)) {
    throw new InvalidArgumentError("band", `${where}: band must be { returns, level?, horizonBars?, draws?, meanBlockBars?, seed? } with returns the backtest's bar returns, got ${String(bandOptions)}`);
  }
  const band = bandOptions === undefined ? undefined : performanceBand(bandOptions.returns, bandOptions);
  const clock = options.clock ?? Date.now;
  const pollMs = options.pollMs ?? Math.min(15_000, intervalMs / 4);
  const staleAfterMs = options.staleAfterMs ?? 3 * intervalMs;
  for (const [k, v] of [["pollMs", pollMs], ["staleAfterMs", staleAfterMs]] as const) {
    if (!(v >= 0) || !Number.isFinite(v)) throw new InvalidArgumentError(k, `${where}: ${k} must be a duration >= 0 in ms, got ${String(v)}`);
  }
  if (options.bars !== undefined && !(Number.isInteger(options.bars) && options.bars >= 0)) throw new InvalidArgumentError("bars", `${where}: bars must be an integer >= 0, got ${String(options.bars)}`);
  const base: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (!PAPER_OWN_OPTIONS.has(k) && v !== undefined) base[k] = v;
  resolveExecution(base, where);
  const params = paperParams(options.params, options.best, where);
  // a composite reads its components from the feed's columns, named by metric id
  const bound = bindStrategy(isComposite && strategy.columns === undefined ? { ...strategy, columns: componentMetricIds(coin) } : strategy, params, base as PaperBacktestOptions, fundingMetric, where);
  const name = options.name ?? `${lower}-${intervalMs / 60_000}m`;
  if (typeof name !== "string" || !/^[A-Za-z0-9_.-]+$/.test(name) || /^\.+$/.test(name)) {
    throw new InvalidArgumentError("name", `${where}: name must be letters, digits, _ . or - (a folder name), got ${JSON.stringify(name)}`);
  }
  const allMetrics = [priceMetric, ...metrics];

  // bar 0: as given, as the existing ledger says, or the latest closed bar
  let start = options.start;
  if (start === undefined) start = readLedger(join(storeDir, `paper=${name}`)).header?.start;
  if (start === undefined) {
    const latest = latestMinute(await feed.read(allMetrics, coin, Number.NaN));
    if (!Number.isFinite(latest)) throw new InvalidArgumentError("start", `${where}: the feed ${feed.source} has no ${priceMetric} minutes to start from; give start`);
    start = Math.floor((latest + 60_000) / intervalMs) * intervalMs - intervalMs;
  }
  if (!Number.isFinite(start) || start % 60_000 !== 0) throw new InvalidArgumentError("start", `${where}: start must be the epoch ms of a minute, got ${String(start)}`);
  const header: LedgerHeader = { kind: "paper-ledger", version: 1, strategy: bound.description, coin, intervalMs, start, priceMetric, metrics };
  const ledger = PaperLedger.open(storeDir, name, header, where);
  try {
    const conform =
      conformance === undefined
        ? undefined
        : { metric: conformance.compositeMetric, weights: conformance.weights ?? (isComposite ? (strategy.weights ?? DEFAULT_WEIGHTS) : DEFAULT_WEIGHTS), windowBars: conformance.windowBars ?? 30, tolerance: conformance.tolerance ?? 1e-9 };
    return await openTrader(ledger, bound, feed, { band, conform, coin, intervalMs, start, priceMetric, metrics, clock, pollMs, staleAfterMs, bars: options.bars, signal: options.signal, where });
  } catch (e) {
    ledger.close();
    throw e;
  }
}

/** The latest minute every series has reached (NaN when one is empty). */
function latestMinute(series: Readonly<Record<string, { readonly time: ArrayLike<number> }>>): number {
  let now = Number.POSITIVE_INFINITY;
  for (const s of Object.values(series)) now = Math.min(now, s.time.length > 0 ? (s.time[s.time.length - 1] as number) : Number.NaN);
  return Number.isFinite(now) ? now : Number.NaN;
}

interface TraderSettings {
  readonly band: PerformanceBand | undefined;
  readonly conform: { readonly metric: string; readonly weights: Weights; readonly windowBars: number; readonly tolerance: number } | undefined;
  readonly coin: string;
  readonly intervalMs: number;
  readonly start: number;
  readonly priceMetric: string;
  readonly metrics: readonly string[];
  readonly clock: () => number;
  readonly pollMs: number;
  readonly staleAfterMs: number;
  readonly bars: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly where: string;
}

/** Columns of the recorded bars, grown by doubling; views of the first n bars are what a decision sees. */
class BarColumns {
  private cap = 0;
  length = 0;
  readonly names: readonly string[];
  private cols: Record<string, Float64Array> = {};
  constructor(metrics: readonly string[]) {
    this.names = ["time", "open", "high", "low", "close", ...metrics];
    this.grow(1024);
  }
  private grow(cap: number): void {
    const next: Record<string, Float64Array> = {};
    for (const n of this.names) {
      const a = new Float64Array(cap);
      const old = this.cols[n];
      if (old !== undefined) a.set(old.subarray(0, this.length));
      next[n] = a;
    }
    this.cols = next;
    this.cap = cap;
  }
  push(values: readonly number[]): void {
    if (this.length === this.cap) this.grow(this.cap * 2);
    this.names.forEach((n, j) => ((this.cols[n] as Float64Array)[this.length] = values[j] as number));
    this.length++;
  }
  /** Views of bars [0, n). */
  view(n: number): Record<string, Float64Array> {
    const out: Record<string, Float64Array> = {};
    for (const name of this.names) out[name] = (this.cols[name] as Float64Array).subarray(0, n);
    return out;
  }
}

function rowValues(row: LedgerRow, metrics: readonly string[]): number[] {
  return [row.time, row.open, row.high, row.low, row.close, ...metrics.map((m) => row.values[m] ?? Number.NaN)];
}

async function openTrader(ledger: PaperLedger, bound: BoundStrategy, feed: PaperFeed, s: TraderSettings): Promise<PaperTrader> {
  const { where, intervalMs, metrics } = s;
  const listeners = new Set<(e: PaperEvent) => void>();
  const emit = (e: Omit<PaperEvent, "at">): void => {
    const ev: PaperEvent = { at: s.clock(), ...e };
    ledger.event(ev);
    for (const fn of listeners) fn(ev);
  };
  const cols = new BarColumns(metrics);
  let digest = "";
  for (const row of ledger.rows) {
    const values = rowValues(row, metrics);
    cols.push(values);
    digest = seenDigest(digest, values);
    if (digest !== row.seen) throw new LedgerMismatchError(ledger.dir, row.bar, "seen", `${where}: ledger ${ledger.dir} bar ${row.bar}: the digest of the bars seen (${row.seen}) is not that of the recorded bars (${digest}); the file was edited or damaged`);
  }
  let account: PaperAccount | undefined;
  const m = ledger.rows.length;
  if (m > 0) {
    const options = bound.optionsFor(cols.view(m));
    account = new PaperAccount(resolveExecution(options, where));
    const replayed = account.replay(options, Float64Array.from(ledger.rows, (r) => r.target), where);
    for (let i = 0; i < m; i++) {
      const row = ledger.rows[i] as LedgerRow;
      for (const f of BOOKED_FIELDS) {
        if (!Object.is(row[f], replayed[f][i])) {
          throw new LedgerMismatchError(ledger.dir, i, f, `${where}: ledger ${ledger.dir} bar ${i}: ${f} is ${row[f]} but the engine replays ${replayed[f][i]} from the recorded bars and targets; the engine or the options changed since it was booked (start a new ledger with another name)`);
        }
      }
    }
    emit({ kind: "restart", bar: m - 1, message: `resumed at bar ${m} after ${m} booked bars${ledger.repaired > 0 ? ` (cut ${ledger.repaired} torn line(s))` : ""}` });
  }
  const reconcile = (): Reconciliation => {
    const n = cols.length;
    const r = reconcileLedger(ledger.rows, bound.optionsFor(cols.view(n)) as BacktestOptions);
    if (!r.equal && r.first !== undefined) {
      const f = r.first;
      emit({ kind: "reconcile", bar: f.bar, message: `live differs from backtest at bar ${f.bar} (${new Date(f.time).toISOString()}): ${f.field} ${f.ledger} in the ledger, ${f.backtest} in the backtest`, data: { ...f } });
    }
    return r;
  };
  const atStart = reconcile();

  let lastNewBarAt = s.clock();
  let stale = false;
  const gaps = new Map<number, number>(); // bar time -> bar index, for gaps not yet filled
  for (const row of ledger.rows) if (row.close !== row.close) gaps.set(row.time, row.bar);
  let feedNow = Number.NaN; // the feed's latest minute at the last poll
  let closed = false;

  // the weights the live composite is replayed with: the configured ones, then the last ones the alarm named
  let reference: Weights = s.conform?.weights ?? DEFAULT_WEIGHTS;
  const lastLoss = [...ledger.events].reverse().find((e) => e.kind === "conformance");
  if (lastLoss?.data !== undefined) reference = (lastLoss.data as { weights: Weights }).weights;
  // the performance band: live bar k = ledger bar k (bar 0 has no return); L = cumulative log return so far
  let cumLog = 0;
  let outside = false;
  const bandAt = (row: LedgerRow): boolean | undefined => {
    const band = s.band;
    if (band === undefined || row.bar < 1) return undefined;
    if (Number.isFinite(row.returns) && row.returns > -1) cumLog += Math.log1p(row.returns);
    if (row.bar > band.horizonBars) return undefined;
    return cumLog < (band.lower[row.bar - 1] as number) || cumLog > (band.upper[row.bar - 1] as number);
  };
  for (const row of ledger.rows) outside = bandAt(row) ?? outside;
  const checkBand = (row: LedgerRow): void => {
    const out = bandAt(row);
    if (out === undefined) return;
    const band = s.band as PerformanceBand;
    if (out && !outside) {
      const k = row.bar;
      emit({
        kind: "performance",
        bar: k,
        message: `realised performance left the backtest's bootstrap band after ${k} live bars: cumulative log return ${cumLog.toFixed(4)} outside [${(band.lower[k - 1] as number).toFixed(4)}, ${(band.upper[k - 1] as number).toFixed(4)}] (false-alarm rate ${band.level} over ${band.horizonBars} bars)`,
        data: { bars: k, cumulativeLogReturn: cumLog, lower: band.lower[k - 1], upper: band.upper[k - 1], level: band.level },
      });
    }
    outside = out;
  };
  const book = (values: number[], late: boolean): LedgerRow => {
    cols.push(values);
    const i = cols.length - 1;
    const options = bound.optionsFor(cols.view(i + 1));
    account ??= new PaperAccount(resolveExecution(options, where));
    const prevUnits = i > 0 ? (ledger.rows[i - 1] as LedgerRow).holdings : 0;
    const booked = account.book(options, where);
    digest = seenDigest(digest, values);
    const vals: Record<string, number> = {};
    metrics.forEach((mId, j) => (vals[mId] = values[5 + j] as number));
    const row: LedgerRow = {
      bar: i,
      time: values[0] as number,
      open: values[1] as number,
      high: values[2] as number,
      low: values[3] as number,
      close: values[4] as number,
      values: vals,
      ...booked,
      traded: booked.holdings - prevUnits,
      fillPrice: booked.holdings !== prevUnits ? (options.fill === "next_open" ? (values[1] as number) : (values[4] as number)) : Number.NaN,
      seen: digest,
      bookedAt: s.clock(),
      late,
    };
    ledger.append(row);
    checkBand(row);
    const cf = s.conform;
    if (cf !== undefined) {
      const view = cols.view(i + 1);
      const loss = conformanceLoss(view, view[cf.metric] as Float64Array, s.coin, reference, cf.windowBars, cf.tolerance);
      if (loss !== undefined) {
        const named = Object.entries(loss.weights).map(([k, w]) => `${k} ${w.toFixed(4)}`).join(", ");
        emit({ kind: "conformance", bar: i, message: `the service's composite left the replay from bar ${loss.from} (largest difference ${loss.residual.toExponential(2)}): its weights are now ${named}`, data: { ...loss } });
        reference = loss.weights;
      }
    }
    return row;
  };

  const poll = async (): Promise<number> => {
    if (closed) return 0;
    const next = s.start + cols.length * intervalMs;
    // a gap the feed can no longer reach (its last minute older than the feed's reach) can never be filled: stop
    // re-reading it (else every poll asks for the whole reach, falls further behind, and books more gaps)
    const reach = feed.reachMs;
    if (reach !== undefined && Number.isFinite(feedNow)) for (const t of gaps.keys()) if (t + intervalMs - 60_000 < feedNow - reach + 60_000) gaps.delete(t);
    let from = next;
    for (const t of gaps.keys()) from = Math.min(from, t);
    let bars: ClosedBars;
    try {
      bars = barsFromMinutes(await feed.read([s.priceMetric, ...metrics], s.coin, from), s.priceMetric, intervalMs, from);
    } catch (e) {
      emit({ kind: "feedError", bar: cols.length, message: `poll of ${feed.source} failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` });
      checkStale();
      return 0;
    }
    if (closed) return 0;
    if (Number.isFinite(bars.now)) feedNow = bars.now;
    const time = bars.columns["time"] as Float64Array;
    const names = ["time", "open", "high", "low", "close", ...metrics];
    let booked = 0;
    for (let k = 0; k < bars.length; k++) {
      const t = time[k] as number;
      const values = names.map((nm) => (bars.columns[nm] as Float64Array)[k] as number);
      const gapBar = gaps.get(t);
      if (gapBar !== undefined) {
        if ((values[4] as number) === (values[4] as number)) {
          gaps.delete(t);
          emit({ kind: "gapFilled", bar: gapBar, message: `bar ${gapBar} (${new Date(t).toISOString()}) was booked without a close; the feed now has ${values[4]} (the ledger keeps what the decision saw)` });
        }
        continue;
      }
      if (t < next + booked * intervalMs) continue;
      const row = book(values, k < bars.length - 1);
      booked++;
      if (row.close !== row.close) {
        gaps.set(row.time, row.bar);
        emit({ kind: "gap", bar: row.bar, message: `bar ${row.bar} (${new Date(row.time).toISOString()}) has no close price: nothing filled on it, position carried` });
      }
      if (s.bars !== undefined && cols.length >= s.bars) break;
    }
    if (booked > 0) {
      if (stale) emit({ kind: "resumed", bar: cols.length - 1, message: `feed resumed: ${booked} bar(s) booked, ${booked - 1} of them late` });
      stale = false;
      lastNewBarAt = s.clock();
    } else checkStale();
    return booked;
  };
  const checkStale = (): void => {
    if (!stale && s.clock() - lastNewBarAt > s.staleAfterMs) {
      stale = true;
      emit({ kind: "stale", bar: cols.length, message: `no new bar for ${s.clock() - lastNewBarAt} ms (stale after ${s.staleAfterMs} ms); last booked bar ${cols.length - 1}` });
    }
  };
  let wake: (() => void) | undefined;
  const trader: PaperTrader = {
    dir: ledger.dir,
    rows: ledger.rows,
    events: ledger.events,
    atStart,
    poll,
    async run() {
      const done = (): boolean => closed || s.signal?.aborted === true || (s.bars !== undefined && cols.length >= s.bars);
      const onAbort = (): void => wake?.();
      s.signal?.addEventListener("abort", onAbort);
      try {
        while (!done()) {
          await poll();
          if (done()) break;
          await new Promise<void>((r) => {
            const t = setTimeout(r, s.pollMs);
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
          wake = undefined;
        }
      } finally {
        s.signal?.removeEventListener("abort", onAbort);
      }
    },
    reconcile,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    status() {
      const last = ledger.rows[ledger.rows.length - 1];
      const alarm = [...ledger.events].reverse().find((e) => e.kind !== "restart");
      return `${ledger.rows.length} bars${last !== undefined ? ` to ${new Date(last.time).toISOString()}` : ""} | position ${last === undefined ? 0 : last.exposure.toFixed(3)} | equity ${last === undefined ? "-" : last.equity.toFixed(2)} | last alarm ${alarm === undefined ? "none" : `${alarm.kind}: ${alarm.message}`}`;
    },
    close() {
      closed = true;
      wake?.();
      ledger.close();
    },
  };
  return trader;
}
