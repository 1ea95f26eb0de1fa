/**
 * The performance and signal sections render into the one self-contained
 * page: every chart is an inline SVG, nothing is fetched, no script.
 */
import { describe, expect, it } from "vitest";
import { loadRealCandles } from "../../src/load/index.js";
import { signalTearsheet } from "../../src/metrics/signalTearsheet.js";
import { performanceSection } from "../../src/report/performanceSection.js";
import { renderTearsheet } from "../../src/report/renderTearsheet.js";
import { signalTearsheetSection } from "../../src/report/signalTearsheetSection.js";
import { qqPoints } from "../../src/report/qqChart.js";
import { monthlyHeatmapSpec } from "../../src/report/monthlyHeatmapChart.js";

const DAY = 86_400_000;

describe("performance and signal tearsheet sections", () => {
  const panel = loadRealCandles("coinbase-btc-4h");
  const n = 3000; // about 16 months of 4h bars
  const time = panel.time.slice(0, n);
  const close = (panel.columns.close as Float64Array).slice(0, n);
  const mom = Float64Array.from(close, (c, i) => (i < 6 ? Number.NaN : c / (close[i - 6] as number) - 1));
  const positions = Float64Array.from(mom, (m) => (m > 0 ? 1 : 0));
  const returns = Float64Array.from(close, (c, i) => (i === 0 ? Number.NaN : (positions[i - 1] as number) * (c / (close[i - 1] as number) - 1)));
  const buyHold = Float64Array.from(close, (c) => c / (close[0] as number));

  it("renders the heatmap, drawdowns, rolling metrics, distribution and signal charts as inline SVG", async () => {
    const perf = performanceSection({ time, returns, positions }, { title: "Performance", benchmark: buyHold });
    expect(perf.specs?.length).toBe(6);
    const sig = signalTearsheetSection(signalTearsheet(mom, close, { time, horizon: 6 }), { title: "Signal", barLabel: "4h bar" });
    let charts = 0;
    const html = await renderTearsheet({ title: "t", sections: [perf, sig] }, { onChart: (done, total) => ((charts = total), done) });
    expect(charts).toBe(6 + 5);
    expect((html.match(/<svg/g) ?? []).length).toBe(11);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain("Top 5 drawdowns");
    expect(html).toContain("Worst 10 bars");
    expect(html).toContain("Spread t-stat");
  });

  it("throws when the benchmark is not one per bar", () => {
    expect(() => performanceSection({ time, returns }, { title: "x", benchmark: [1] })).toThrow(/performanceSection: benchmark must have one value per bar/);
  });

  it("an empty series still gives a section", async () => {
    const s = performanceSection({ time: [], returns: [] }, { title: "empty" });
    const html = await renderTearsheet({ title: "t", sections: [s] });
    expect(html).toContain("empty");
  });

  it("QQ points: Hazen positions against the normal quantiles", () => {
    // n = 2: positions 0.25, 0.75 -> z = ∓0.6744897501960817 (scipy.stats.norm.ppf(0.75))
    const p = qqPoints([3, Number.NaN, 1]);
    expect(p.map((x) => x.v)).toEqual([1, 3]);
    expect(p[1]!.z).toBeCloseTo(0.6744897501960817, 12);
    expect(p[0]!.z).toBeCloseTo(-0.6744897501960817, 12);
  });

  it("heatmap rows: one cell per month and one per year", () => {
    const spec = monthlyHeatmapSpec({ monthly: { year: [2024, 2024], month: [1, 2], return: [0.1, -0.1] }, yearly: { year: [2024], return: [-0.01] } }) as { data: { values: { m: string }[] } };
    expect(spec.data.values.map((r) => r.m)).toEqual(["Jan", "Feb", "Year"]);
    expect(() => monthlyHeatmapSpec({ monthly: { year: [2024], month: [], return: [] }, yearly: { year: [], return: [] } })).toThrow(/same length/);
    void DAY;
  });
});
