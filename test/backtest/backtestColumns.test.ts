/**
 * One rule names and orders a backtest's bar table, for one coin and for a
 * portfolio: `backtestColumns` gives the columns that `toDataFrame()`, the
 * Parquet file and the manifest's result fingerprint carry. The expected lists
 * are written out by hand (the names the tables have always had).
 */
import { describe, expect, it } from "vitest";
import { backtest, backtestPortfolio } from "../../src/backtest/index.js";
import { backtestColumns } from "../../src/backtest/index.js";
import { createManifest } from "../../src/store/index.js";

const time = [0, 1, 2, 3];
const BTC = { close: [100, 110, 121, 121], position: [1, 1, 0, 0] };
const ETH = { close: [10, 9, 9.9, 9.9], position: [1, 1, 0, 0] };

const ACCOUNT = ["time", "equity", "returns", "positions", "exposure", "turnover", "fees", "funding_paid"];

describe("backtestColumns", () => {
  it("one coin: the account's nine series, holdings after exposure, each the result's own array", () => {
    const r = backtest({ time, ...BTC, feeBps: 10 });
    const cols = backtestColumns(r);
    expect(Object.keys(cols)).toEqual(["time", "equity", "returns", "positions", "exposure", "holdings", "turnover", "fees", "funding_paid"]);
    expect(cols["equity"]).toBe(r.equity);
    expect(cols["holdings"]).toBe(r.holdings);
    expect(cols["funding_paid"]).toBe(r.fundingPaid);
    expect(r.toDataFrame().columns).toEqual(Object.keys(cols));
  });

  it("portfolio: the account's series without holdings, then each coin's position, exposure, holdings in the order the coins were given", () => {
    const r = backtestPortfolio({ time, coins: { ETH, BTC }, feeBps: 10 });
    const cols = backtestColumns(r);
    const perCoin = ["ETH", "BTC"].flatMap((c) => [`${c}_position`, `${c}_exposure`, `${c}_holdings`]);
    expect(Object.keys(cols)).toEqual([...ACCOUNT, ...perCoin]);
    expect(cols["positions"]).toBe(r.positions);
    expect(cols["funding_paid"]).toBe(r.fundingPaid);
    expect(cols["ETH_position"]).toBe(r.coins["ETH"]?.positions);
    expect(cols["ETH_exposure"]).toBe(r.coins["ETH"]?.exposure);
    expect(cols["BTC_holdings"]).toBe(r.coins["BTC"]?.holdings);
    expect(Object.values(cols).every((c) => c instanceof Float64Array && c.length === time.length)).toBe(true);
  });

  it("portfolio: its bar table and its manifest's result fingerprint are these columns", () => {
    const options = { time, coins: { BTC, ETH }, weights: { BTC: 0.7, ETH: 0.3 } };
    const r = backtestPortfolio(options);
    expect(r.toDataFrame().columns).toEqual(Object.keys(backtestColumns(r)));
    const byHand = createManifest({ kind: "portfolio", options, result: backtestColumns(r) });
    expect(r.manifest.result?.sha256).toBe(byHand.result?.sha256);
    expect(Object.keys(r.manifest.result?.columns ?? {})).toEqual(Object.keys(backtestColumns(r)));
  });

  it("one-coin portfolio: 8 account + 3 coin columns, a new object each call, the result not changed", () => {
    const r = backtestPortfolio({ time, coins: { BTC } });
    const a = backtestColumns(r);
    expect(Object.keys(a)).toEqual([...ACCOUNT, "BTC_position", "BTC_exposure", "BTC_holdings"]);
    expect(backtestColumns(r)).not.toBe(a);
    expect(Object.keys(r.coins)).toEqual(["BTC"]);
  });
});
