import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/runCli.js";
import { readParquet } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";

const CLOCK = "2026-11-01T00:00:00Z";

function out(): string {
  return mkdtempSync(join(tmpdir(), "milab-export-"));
}

describe("milab export", () => {
  it("history as Parquet: DuckDB reads it; the manifest sits beside it", async () => {
    const dir = out();
    const code = await runCli(["export", "history", "--coins", "btc", "--metrics", "btc_price,btc_funding_rate", "--hours", "3", "--clock", CLOCK, "--out", dir, "--quiet"]);
    expect(code).toBe(0);
    const rows = await duck(`select count(*)::int as n, min(epoch_ms(time))::double as first, max(epoch_ms(time))::double as last, count(btc_price)::int as prices from ${lit(join(dir, "history.parquet"))}`);
    // 3 hours of one-minute points ending at the clock: 180 rows, 2026-10-31T21:01 .. 2026-11-01T00:00
    expect(rows).toEqual([{ n: 180, first: Date.UTC(2026, 9, 31, 21, 1), last: Date.UTC(2026, 10, 1), prices: 180 }]);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(manifest.kind).toBe("history");
    expect(manifest.seed).toBe(42);
    expect(manifest.clock).toBe(Date.UTC(2026, 10, 1));
    expect(manifest.parameters).toMatchObject({ metricId: ["btc_price", "btc_funding_rate"], hours: 3 });
    expect(Object.keys(manifest.inputs.columns)).toEqual(["data.time", "data.columns.btc_price", "data.columns.btc_funding_rate"]);
    expect(manifest.timeRange.end).toBe("2026-11-01T00:00:00.000Z");
  });

  it("history as CSV: pandas reads the same times and values as the Parquet export", async () => {
    const dir = out();
    const args = ["export", "history", "--coins", "eth", "--metrics", "eth_price", "--hours", "2", "--clock", CLOCK, "--quiet"];
    expect(await runCli([...args, "--format", "csv", "--out", dir])).toBe(0);
    expect(await runCli([...args, "--out", dir])).toBe(0);
    const py = execFileSync(
      "/usr/bin/python3", // Debian's, with pandas
      ["-c", `import pandas as pd, json; d = pd.read_csv(${JSON.stringify(join(dir, "history.csv"))}, parse_dates=["time"], float_precision="round_trip"); print(json.dumps({"tz": str(d["time"].dt.tz), "ms": [int(t.value // 10**6) for t in d["time"]], "v": d["eth_price"].tolist()}))`],
      { encoding: "utf8" },
    );
    const csv = JSON.parse(py) as { tz: string; ms: number[]; v: number[] };
    const pq = await readParquet(join(dir, "history.parquet"));
    expect(csv.tz).toBe("UTC");
    expect(csv.ms).toEqual(Array.from(pq.time));
    expect(csv.v).toEqual(Array.from(pq.columns.eth_price!)); // shortest round-trip text: exact float64 (pandas needs float_precision="round_trip" to parse it exactly)
  });

  it("backtest: per-coin bar tables and trades, and the sweep table", async () => {
    const dir = out();
    const common = ["--coins", "btc", "--hours", "24", "--clock", CLOCK, "--quiet", "--out"];
    expect(await runCli(["export", "backtest", ...common, dir])).toBe(0);
    const bars = await duck(`select count(*)::int as n, count(equity)::int as equity from ${lit(join(dir, "backtest-btc.parquet"))}`);
    expect(bars[0]!.n).toBeGreaterThan(0);
    expect(bars[0]!.equity).toBe(bars[0]!.n);
    expect(existsSync(join(dir, "trades-btc.parquet"))).toBe(true);
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(m.kind).toBe("backtest-study");
    expect(Object.keys(m.result.columns)).toEqual(["btc_equity"]);
    const sweepDir = out();
    expect(await runCli(["export", "sweep", "--format", "csv", ...common, sweepDir])).toBe(0);
    const text = readFileSync(join(sweepDir, "sweep.csv"), "utf8");
    // the what-if sweep, every variant: your rule (the service's weights) first, then the simplex at 0.1, x 3 thresholds
    expect(text.split("\n")[0]).toBe("coin,variant,w_imbalance,w_funding,w_basis_spread,w_momentum_5m,w_gas,threshold,totalReturn,sharpeRatio,maxDrawdown,trades,turnover,exposure");
    expect(text.split("\n")[1]).toMatch(/^BTC,0,0\.3,0\.25,0\.2,0\.15,0\.1,0\.1,/);
    expect(text.trim().split("\n")).toHaveLength(1 + 3006);
  });

  it("rejects an unknown kind or format", async () => {
    expect(await runCli(["export", "everything", "--out", out()])).toBe(2);
    expect(await runCli(["export", "history", "--format", "xlsx", "--out", out()])).toBe(2);
  });
});
