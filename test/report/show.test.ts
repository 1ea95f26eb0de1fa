/**
 * Results that show themselves: stats (the formatted one-block summary),
 * monthlyTable (the years × months pivot, checked against pandas), show() in a
 * terminal and in a (fake) tslab kernel, the inspect text form, and panelBetween.
 */
import { spawnSync } from "node:child_process";
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPanel, InvalidArgumentError, panelBetween } from "../../src/index.js";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DISPLAY, displayForms, formatPercent, monthlyTable, show, stats, tearsheet, textTable } from "../../src/report/index.js";
import { monthlyHeatmapSpec } from "../../src/report/monthlyHeatmapChart.js";
import { walkForwardSpec } from "../../src/report/walkForwardChart.js";
import { scaledMs } from "../support/timeScale.js";

const H = 3_600_000;
const DAY = 86_400_000;

afterEach(() => {
  delete (globalThis as { __tslab__?: unknown }).__tslab__;
  vi.restoreAllMocks();
});

describe("stats", () => {
  // 40 daily bars: +1 % on even days, -0.5 % on odd days, bar 0 NaN (as a backtest's returns).
  const time = Float64Array.from({ length: 40 }, (_, i) => Date.UTC(2024, 0, 1) + i * DAY);
  const returns = Float64Array.from({ length: 40 }, (_, i) => (i === 0 ? Number.NaN : i % 2 === 0 ? 0.01 : -0.005));

  it("formats percentages as percentages, times as UTC dates and the Sharpe ratio with its standard error", () => {
    const s = stats({ time, returns });
    const text = inspect(s);
    expect(text).toMatch(/^Start\s+2024-01-01 00:00$/m);
    expect(text).toMatch(/^End\s+2024-02-09 00:00$/m);
    expect(text).toMatch(/^Duration\s+39\.0 days$/m);
    // total return: 1.01^19 * 0.995^20 - 1 (hand-computed: 0.0997...)
    const total = 1.01 ** 19 * 0.995 ** 20 - 1;
    expect(text).toContain(`Return [%]`);
    expect(text).toContain(`${(total * 100).toFixed(2)}%`);
    // 39 days of bars: CAGR shown, and it says it was annualised from under a year
    expect(text).toMatch(/CAGR \[%\] \(empyrical, annualised from 39 days\)/);
    expect(text).toMatch(/^Sharpe ratio \(empyrical\) ± SE\s+-?\d+\.\d\d ± \d+\.\d\d$/m);
    // numpy: r = [-0.005, 0.01] * ...; mean/std(ddof=1)*sqrt(365) on the 39 returns
    const r = Array.from(returns.subarray(1));
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1));
    const sharpe = (mean / sd) * Math.sqrt(365);
    expect(s.summary.sharpeRatio).toBeCloseTo(sharpe, 10);
    // Mertens (2002) / Bailey & López de Prado, annual units: sqrt(P (1 - g3 SRp + (g4 - 1)/4 SRp²) / (n - 1)),
    // P = 365, n = 39, SRp = sharpe / sqrt(P), g3, g4 from the population central moments of the 39 returns
    const m = (k: number): number => r.reduce((a, b) => a + (b - mean) ** k, 0) / r.length;
    const g3 = m(3) / m(2) ** 1.5;
    const g4 = m(4) / m(2) ** 2;
    const srp = sharpe / Math.sqrt(365);
    const se = Math.sqrt((365 * (1 - g3 * srp + ((g4 - 1) / 4) * srp ** 2)) / 38);
    expect(s.sharpeStandardError).toBeCloseTo(se, 10);
    // not the i.i.d. normal one: these two-valued returns have g4 = 1 + g3² (the least kurtosis there is)
    expect(Math.abs(s.sharpeStandardError - Math.sqrt((365 + sharpe ** 2 / 2) / 38))).toBeGreaterThan(0.05);
    expect(text).toContain(`${sharpe.toFixed(2)} ± ${se.toFixed(2)}`);
  });

  it("hides a CAGR of under 28 days and says so", () => {
    const s = stats({ time: time.subarray(0, 10), returns: returns.subarray(0, 10) });
    const row = s.rows.find((r) => r.label.startsWith("CAGR"))!;
    expect(row.label).toBe("CAGR [%] (empyrical; not shown under 28 days)");
    expect(row.text).toBe("–");
  });

  it("takes a bare return series with its times, and refuses one without", () => {
    expect(stats(returns, { time }).summary.periods).toBe(39);
    expect(() => stats(returns)).toThrow(InvalidArgumentError);
    expect(() => stats(returns, { time: time.subarray(1) })).toThrow(/one value per return/);
  });

  it("shows trades, exposure and alpha / beta only when it has them, and leaves its input alone", () => {
    const before = Float64Array.from(returns);
    const s = stats({ time, returns, positions: new Float64Array(40).fill(1), trades: [] }, { benchmark: returns });
    const labels = s.rows.map((r) => r.label);
    expect(labels).toContain("Trades");
    // targets only: the row says they are targets; with the weights held, it is the bars held
    expect(labels).toContain("Bars with a target [%]");
    expect(labels).not.toContain("Bars held [%]");
    const held = Float64Array.from({ length: 40 }, (_, i) => (i < 10 ? 1 : 0));
    const h = stats({ time, returns, positions: new Float64Array(40).fill(1), exposure: held });
    expect(h.rows.find((r) => r.label === "Bars held [%]")?.value).toBe(0.25);
    expect(h.rows.map((r) => r.label)).not.toContain("Bars with a target [%]");
    expect(labels).toContain("Beta (empyrical)");
    expect(s.summary.beta).toBeCloseTo(1, 12);
    expect(returns).toEqual(before);
    expect(stats({ time, returns }).rows.map((r) => r.label)).not.toContain("Trades");
  });

  it("gives the empty series dashes, not an exception", () => {
    const s = stats({ time: [], returns: [] }, { periodsPerYear: 365 });
    expect(s.rows.find((r) => r.label === "Start")!.text).toBe("–");
    expect(s.rows.find((r) => r.label === "Return [%]")!.text).toBe("–");
  });
});

describe("monthlyTable", () => {
  // Hourly bars from 2023-11-20 to 2024-03-05 with a hole over all of January 2024, a NaN,
  // and returns from a fixed formula: the pivot is checked against pandas.
  const times: number[] = [];
  const rets: number[] = [];
  for (let t = Date.UTC(2023, 10, 20); t < Date.UTC(2024, 2, 5); t += 6 * H) {
    if (t >= Date.UTC(2024, 0, 1) && t < Date.UTC(2024, 1, 1)) continue;
    const k = times.length;
    times.push(t);
    rets.push(k === 7 ? Number.NaN : 0.004 * Math.sin(k * 0.7) + 0.0005);
  }

  it("pivots years × months with the compounded year, as pandas groupby(year, month).prod().unstack()", () => {
    const py = `
import json, sys, numpy as np, pandas as pd
d = json.load(sys.stdin)
t = pd.to_datetime(d["t"], unit="ms", utc=True)
r = pd.Series([np.nan if v is None else v for v in d["r"]], index=t).fillna(0)
m = (1 + r).groupby([t.year, t.month]).prod() - 1
p = m.unstack()
y = (1 + r).groupby(t.year).prod() - 1
out = {"years": [int(v) for v in p.index], "grid": [[None if np.isnan(p.loc[yr].get(mo, np.nan)) else float(p.loc[yr].get(mo, np.nan)) for mo in range(1, 13)] for yr in p.index], "year": [float(v) for v in y]}
print(json.dumps(out))`;
    const res = spawnSync("/usr/bin/python3", ["-c", py], { input: JSON.stringify({ t: times, r: rets.map((v) => (Number.isNaN(v) ? null : v)) }), encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    const ref = JSON.parse(res.stdout) as { years: number[]; grid: (number | null)[][]; year: number[] };
    const table = monthlyTable(rets, { time: times });
    expect(table.years).toEqual(ref.years);
    table.returns.forEach((row, r) => {
      row.forEach((v, m) => {
        const want = ref.grid[r]![m];
        if (want === null || want === undefined) expect(v).toBeNaN();
        else expect(v).toBeCloseTo(want, 12);
      });
    });
    Array.from(table.year).forEach((v, i) => expect(v).toBeCloseTo(ref.year[i]!, 12));
    // January 2024 has no bars: blank, not 0
    expect(table.returns[1]![0]).toBeNaN();
  });

  it("reads a backtest result, shows percentages, and is what monthlyHeatmapChart takes", () => {
    const table = monthlyTable({ time: times, returns: rets });
    const { text, html } = table[DISPLAY]();
    expect(text.split("\n")[0]).toMatch(/^year\s+Jan\s+Feb .* Dec\s+Year$/);
    expect(text).toMatch(/^2024\s+\S+%/m);
    expect(html).toContain("<table");
    expect(inspect(table)).toBe(text);
    const df = table.toDataFrame();
    expect(df.columns).toEqual(["year", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "Year"]);
    const spec = monthlyHeatmapSpec(table) as { data: { values: unknown[] } };
    expect(spec.data.values.length).toBe(table.monthly.year.length + table.yearly.year.length);
  });

  it("handles empty input and one bar, and refuses a series without times", () => {
    expect(monthlyTable([], { time: [] }).years).toEqual([]);
    const one = monthlyTable([0.05], { time: [Date.UTC(2025, 5, 3)] });
    expect(one.years).toEqual([2025]);
    expect(one.returns[0]![5]).toBeCloseTo(0.05, 15);
    expect(one.year[0]).toBeCloseTo(0.05, 15);
    expect(() => monthlyTable([0.1])).toThrow(InvalidArgumentError);
  });
});

describe("show", () => {
  it("prints the text form outside a notebook, times as UTC dates", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    show({ time: [Date.UTC(2026, 10, 1, 9, 30)], value: [1.5] });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toContain("2026-11-01 09:30");
  });

  it("sends the HTML form to tslab's display inside a tslab kernel", () => {
    const html = vi.fn();
    (globalThis as { __tslab__?: unknown }).__tslab__ = { require: (id: string) => (id === "tslab" ? { display: { html } } : undefined) };
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    show(stats({ time: [0, DAY], returns: [Number.NaN, 0.01] }));
    expect(log).not.toHaveBeenCalled();
    expect(html).toHaveBeenCalledTimes(1);
    expect(html.mock.calls[0]![0]).toContain("Sharpe ratio");
  });

  it("shows a backtest-like result as its stats, a walk-forward as its folds, a sweep as its best rows", () => {
    const bt = { time: Float64Array.of(0, DAY), returns: Float64Array.of(Number.NaN, 0.02), equity: Float64Array.of(1, 1.02), trades: [] };
    expect(displayForms(bt).text).toMatch(/^Return \[%\]\s+2\.00%$/m);
    const wf = {
      folds: { rows: 2, columns: { fold: Float64Array.of(0, 1), inSample: Float64Array.of(1, 2), outOfSample: Float64Array.of(0.5, -0.1) } },
      outOfSample: 0.2,
      returns: new Float64Array(4),
    };
    expect(displayForms(wf).text).toMatch(/^Walk-forward: 2 folds/);
    expect((walkForwardSpec(wf) as { data: { values: unknown[] } }).data.values.length).toBe(4);
    const sweep = {
      components: ["imbalance"],
      length: 3,
      total: 3,
      complete: true,
      periodsPerYear: 8760,
      best: () => undefined,
      columns: { variant: Float64Array.of(0, 1, 2), sharpeRatio: Float64Array.of(0.1, Number.NaN, 2), totalReturn: Float64Array.of(0.01, 0, 0.2) },
    };
    const lines = displayForms(sweep).text.split("\n");
    expect(lines[0]).toMatch(/3 of 3 variants/);
    expect(lines[3]).toMatch(/^\s*2\s+2\s+20\.00%$/); // best first, total return as a percentage
  });

  it("shows a record of numbers (performanceSummary) as name / value rows, and assessSweep's walk-forward", () => {
    expect(displayForms({ sharpeRatio: 1.5, trades: 12 }).text.split("\n")).toEqual(["name         value", "-----------  -----", "sharpeRatio    1.5", "trades          12"]);
    const wf = { folds: { rows: 1, columns: { fold: Float64Array.of(0) } }, outOfSampleSharpe: 0.25, returns: new Float64Array(2) };
    expect(displayForms(wf).text).toMatch(/^Walk-forward: 1 folds; stitched out-of-sample Sharpe ratio \(annualised\) 0\.2500/);
  });

  it("refuses a Promise with the fix in the message, and falls back to inspect for anything else", () => {
    expect(() => show(Promise.resolve("<svg/>"))).toThrow(/show\(await \.\.\.\)/);
    expect(displayForms({ a: { b: 1 } }).text).toBe("{ a: { b: 1 } }");
    expect(displayForms("<svg></svg>").html).toBe("<svg></svg>");
  });
});

describe("tearsheet", () => {
  const n = 120;
  const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * DAY);
  const returns = Float64Array.from({ length: n }, (_, i) => (i === 0 ? Number.NaN : 0.01 * Math.sin(i / 3)));
  const benchmark = Float64Array.from({ length: n }, (_, i) => (i === 0 ? Number.NaN : 0.005 * Math.cos(i / 5)));

  it("renders a return series with a benchmark in one call, writes the file, and shows in a frame", async () => {
    const file = join("test", ".tmp", "tearsheet-one-call", "sheet.html");
    rmSync(join("test", ".tmp", "tearsheet-one-call"), { recursive: true, force: true });
    const sheet = await tearsheet(returns, { time, benchmark, benchmarkName: "BTC", title: "Sine", file });
    expect(sheet.html).toMatch(/^<!doctype html>/i);
    expect(sheet.html).toContain("Sine: performance");
    expect(sheet.html).toContain("BTC");
    expect(existsSync(sheet.file!)).toBe(true);
    expect(readFileSync(sheet.file!, "utf8")).toBe(sheet.html);
    const forms = sheet[DISPLAY]();
    expect(forms.html).toMatch(/^<iframe title="Sine" srcdoc="&lt;!/i);
    expect(forms.text).toMatch(/^Tearsheet "Sine": \d+ kB of HTML, written to /);
  }, scaledMs(60_000));

  it("refuses a bare series without times, and a benchmark of the wrong length", async () => {
    await expect(tearsheet(returns)).rejects.toThrow(/needs its bar times/);
    await expect(tearsheet(returns, { time, benchmark: benchmark.subarray(1) })).rejects.toThrow(/benchmark must have one value per bar/);
  });
});

describe("textTable time columns and maxRows", () => {
  it("shows epoch-ms columns as UTC dates and long tables as head and tail", () => {
    const t = textTable({ time: [0, H, 2 * H, 3 * H], v: [1, 2, 3, 4] }, { timeColumns: ["time"], maxRows: 2 });
    expect(t.split("\n")).toEqual(["time              v", "----------------  -", "1970-01-01 00:00  1", "… 2 more rows …", "1970-01-01 03:00  4"]);
    expect(() => textTable({ v: [1] }, { maxRows: 0 })).toThrow(InvalidArgumentError);
  });
});

describe("formatPercent", () => {
  it("writes decimals as percentages", () => {
    expect(formatPercent(0.1234)).toBe("12.34%");
    expect(formatPercent(-0.05, 1)).toBe("-5.0%");
    expect(formatPercent(Number.NaN)).toBe("–");
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe("∞");
  });
});

describe("panelBetween", () => {
  const panel = createPanel([Date.UTC(2026, 9, 30, 23), Date.UTC(2026, 9, 31), Date.UTC(2026, 9, 31, 12), Date.UTC(2026, 10, 1)], { x: [1, 2, 3, 4] });

  it("keeps [start, end): start included, end excluded; strings without offset are UTC", () => {
    const day = panelBetween(panel, "2026-10-31", "2026-11-01");
    expect(Array.from(day.columns.x!)).toEqual([2, 3]);
    // an explicit offset is honoured: 00:00+01:00 is 23:00 UTC the day before
    expect(Array.from(panelBetween(panel, "2026-10-31T00:00:00+01:00", undefined).columns.x!)).toEqual([1, 2, 3, 4]);
    expect(Array.from(panelBetween(panel, "2026-10-31T00:00:01", undefined).columns.x!)).toEqual([3, 4]);
    expect(Array.from(panelBetween(panel, undefined, new Date(Date.UTC(2026, 9, 31))).columns.x!)).toEqual([1]);
    expect(panelBetween(panel, Date.UTC(2027, 0, 1)).time.length).toBe(0);
  });

  it("copies, never shares, and refuses a reversed or unreadable range", () => {
    const part = panelBetween(panel, undefined);
    part.columns.x![0] = 99;
    expect(panel.columns.x![0]).toBe(1);
    expect(() => panelBetween(panel, "2026-11-01", "2026-10-01")).toThrow(/before start/);
    expect(() => panelBetween(panel, "not a date")).toThrow(/panelBetween: start/);
    expect(panelBetween(createPanel([], {}), 0, 1).time.length).toBe(0);
  });
});
