/**
 * Chart specs and their headless SVG rendering. Reference values are worked
 * out by hand in the comments (drawdowns, kept extremes, row counts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { barChart, drawdownChart, equityChart, icDecayChart, positionsChart, signalChart } from "../../src/report/index.js";
import { barSpec, drawdownSpec, equitySpec, icDecaySpec, positionsSpec, renderSvg, signalSpec } from "../../src/report/charts/index.js";
import { downsampleIndices } from "../../src/report/downsample.js";
import { drawdownOf } from "../../src/report/drawdownChart.js";
import { scopeSvgIds } from "../../src/report/renderSvg.js";

type Rows = { t: number; v: number | null; s: string }[];
const rowsOf = (spec: unknown): Rows => (spec as { data: { values: Rows } }).data.values;
const DAY = 86_400_000;

describe("drawdownOf", () => {
  it("is equity over its running peak minus one", () => {
    // peaks 100, 100, 120, 120 -> 0, 80/100-1, 0, 90/120-1
    expect(Array.from(drawdownOf([100, 80, 120, 90]))).toEqual([0, 80 / 100 - 1, 0, 90 / 120 - 1]);
  });
  it("gives NaN at NaN and keeps the peak across it; empty and one point", () => {
    const d = drawdownOf([100, Number.NaN, 50]);
    expect(d[1]).toBeNaN();
    expect(d[2]).toBe(-0.5);
    expect(drawdownOf([]).length).toBe(0);
    expect(Array.from(drawdownOf([7]))).toEqual([0]);
    expect(Array.from(drawdownOf([5, 5, 5]))).toEqual([0, 0, 0]);
  });
});

describe("downsampleIndices (min-max decimation)", () => {
  it("keeps every index of a short series", () => {
    expect(downsampleIndices([3, 1, 2], 10)).toEqual([0, 1, 2]);
  });
  it("always keeps the first, last, global min and global max, ascending and unique, near the budget", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 50, maxLength: 3000 }), fc.integer({ min: 8, max: 400 }), (xs, max) => {
        const idx = downsampleIndices(xs, max);
        for (let k = 1; k < idx.length; k++) expect(idx[k]).toBeGreaterThan(idx[k - 1] as number);
        expect(idx[0]).toBe(0);
        expect(idx[idx.length - 1]).toBe(xs.length - 1);
        const kept = idx.map((i) => xs[i] as number);
        expect(Math.max(...kept)).toBe(Math.max(...xs));
        expect(Math.min(...kept)).toBe(Math.min(...xs));
        if (xs.length > max) expect(idx.length).toBeLessThanOrEqual(max + 4);
      }),
      { numRuns: 60 },
    );
  });
  it("keeps the last point when the bucket size does not divide evenly (60 points, budget 52: 13 x (60 / 13) rounds to 59.999...)", () => {
    // fast-check found it (seed -1840203663): the last bucket ended at index 58
    const idx = downsampleIndices(new Array(60).fill(0), 52);
    expect(idx[idx.length - 1]).toBe(59);
    expect(idx[0]).toBe(0);
  });
  it("skips NaN when looking for extremes", () => {
    const xs = Array.from({ length: 100 }, (_, i) => (i === 50 ? 1000 : i % 7 === 0 ? Number.NaN : 1));
    const idx = downsampleIndices(xs, 8);
    expect(idx).toContain(50);
  });
});

describe("chart specs", () => {
  const time = [0, DAY, 2 * DAY];
  it("equitySpec: one long row per point and series, NaN as null, rebased when normalize", () => {
    const rows = rowsOf(equitySpec({ time, series: { a: [100, Number.NaN, 110], b: [50, 55, 60] } }));
    expect(rows).toEqual([
      { t: 0, v: 100, s: "a" },
      { t: DAY, v: null, s: "a" },
      { t: 2 * DAY, v: 110, s: "a" },
      { t: 0, v: 50, s: "b" },
      { t: DAY, v: 55, s: "b" },
      { t: 2 * DAY, v: 60, s: "b" },
    ]);
    const norm = rowsOf(equitySpec({ time, series: { b: [50, 55, 60] } }, { normalize: true }));
    expect(norm.map((r) => r.v)).toEqual([1, 1.1, 1.2]);
  });
  it("drawdownSpec plots the drawdown of each equity curve", () => {
    const rows = rowsOf(drawdownSpec({ time, series: { a: [100, 80, 120] } }));
    expect(rows.map((r) => r.v)).toEqual([0, 80 / 100 - 1, 0]);
  });
  it("positionsSpec draws steps: one series as an area, several as one strip each in the given order", () => {
    const spec = positionsSpec({ time, series: { BTC: [0, 1, -1] } }) as { mark: { interpolate: string }; facet?: unknown };
    expect(spec.mark.interpolate).toBe("step-after");
    expect(spec.facet).toBeUndefined();
    const many = positionsSpec({ time, series: { SOL: [0, 1, 0], BTC: [1, 1, 0] } }) as unknown as {
      facet: { row: { field: string; sort: string[] } };
      spec: { mark: { interpolate: string } };
    };
    expect(many.facet.row).toMatchObject({ field: "s", sort: ["SOL", "BTC"] });
    expect(many.spec.mark.interpolate).toBe("step-after");
  });
  it("downsamples long series to the point budget, keeping the extremes", () => {
    const n = 20_000;
    const t = Float64Array.from({ length: n }, (_, i) => i * 60_000);
    const v = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 100) + (i === 12_345 ? -50 : 0));
    const rows = rowsOf(equitySpec({ time: t, series: { a: v } }, { maxPoints: 500 }));
    expect(rows.length).toBeLessThanOrEqual(504);
    expect(Math.min(...rows.map((r) => r.v as number))).toBe(v[12_345]);
  });
  it("barSpec keeps the category order and colours by sign", () => {
    const spec = barSpec({ category: ["low", "high"], value: [-0.1, 0.2] }) as { data: { values: { c: string; sign: string }[] } };
    expect(spec.data.values.map((r) => [r.c, r.sign])).toEqual([
      ["low", "neg"],
      ["high", "pos"],
    ]);
  });
  it("icDecaySpec puts one row per horizon and curve, NaN as null", () => {
    const rows = (icDecaySpec({ horizon: [1, 4], ic: { a: [0.1, Number.NaN] } }) as unknown as { data: { values: unknown[] } }).data.values;
    expect(rows).toEqual([
      { h: 1, v: 0.1, s: "a" },
      { h: 4, v: null, s: "a" },
    ]);
  });
  it("icDecaySpec adds the interval to each row and a band layer only when both bounds are given", () => {
    const withCi = icDecaySpec({ horizon: [1, 4], ic: { a: [0.1, 0.05] }, ciLow: { a: [0, Number.NaN] }, ciHigh: { a: [0.2, 0.1] } }) as unknown as {
      data: { values: unknown[] };
      layer: unknown[];
    };
    expect(withCi.data.values).toEqual([
      { h: 1, v: 0.1, s: "a", lo: 0, hi: 0.2 },
      { h: 4, v: 0.05, s: "a", lo: null, hi: 0.1 },
    ]);
    expect(withCi.layer.length).toBe(3);
    const onlyLow = icDecaySpec({ horizon: [1], ic: { a: [0.1] }, ciLow: { a: [0] } }) as unknown as { layer: unknown[] };
    expect(onlyLow.layer.length).toBe(2);
    expect(() => icDecaySpec({ horizon: [1, 2], ic: { a: [1, 2] }, ciHigh: { a: [1] } })).toThrow('icDecayChart: ciHigh "a" has 1 values but horizon has 2');
  });
  it("rejects arrays of unequal length with typed errors naming the fix", () => {
    expect(() => equitySpec({ time, series: { a: [1, 2] } })).toThrow(InvalidArgumentError);
    expect(() => equitySpec({ time, series: { a: [1, 2] } })).toThrow('equityChart: series "a" has 2 values but time has 3; pass arrays of the same length');
    expect(() => signalSpec({ time, price: [1, 2, 3], score: [0] })).toThrow("signalChart: score has 1 values but time has 3");
    expect(() => barSpec({ category: ["a"], value: [1, 2] })).toThrow("barChart: category, value must have the same length, got 1, 2");
    expect(() => icDecaySpec({ horizon: [1, 2], ic: { a: [1] } })).toThrow('icDecayChart: ic "a" has 1 values but horizon has 2');
  });
  it("does not mutate its inputs", () => {
    const eq = Float64Array.of(100, 80, 120);
    drawdownSpec({ time, series: { a: eq } });
    equitySpec({ time, series: { a: eq } }, { normalize: true });
    expect(Array.from(eq)).toEqual([100, 80, 120]);
  });
});

describe("SVG rendering (vega, headless)", () => {
  const n = 200;
  const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2026, 9, 1) + i * 3_600_000);
  const price = Float64Array.from({ length: n }, (_, i) => 100 + 10 * Math.sin(i / 20));
  const score = Float64Array.from({ length: n }, (_, i) => 0.4 * Math.cos(i / 15));
  const trade = {
    side: "long" as const,
    entryIndex: 10,
    exitIndex: 30,
    entryTime: time[10] as number,
    exitTime: time[30] as number,
    entryPrice: price[10] as number,
    exitPrice: price[30] as number,
    units: 1,
    return: 0.01,
    pnl: 10,
    barsHeld: 20,
    fees: 1,
    funding: 0,
    open: false,
  };

  it("renders every chart to a standalone SVG with its title", async () => {
    const svgs = await Promise.all([
      equityChart({ time, series: { strategy: price } }, { title: "Equity T1" }),
      drawdownChart({ time, series: { strategy: price } }, { title: "Drawdown T2" }),
      signalChart({ time, price, score, trades: [trade], thresholds: { buy: 0.1, sell: -0.1 } }, { title: "Signal T3" }),
      positionsChart({ time, series: { BTC: score, ETH: score } }, { title: "Positions T4" }),
      barChart({ category: ["low", "high"], value: [0.1, -0.2] }, { title: "Bars T5" }),
      icDecayChart({ horizon: [1, 2, 4], ic: { a: [0.1, 0.05, 0.01] }, ciLow: { a: [0, -0.05, -0.1] }, ciHigh: { a: [0.2, 0.15, 0.1] } }, { title: "IC T6" }),
    ]);
    svgs.forEach((svg, i) => {
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg).toContain(`T${i + 1}</text>`);
      expect(svg).not.toMatch(/NaN/);
      const [, w, h] = /width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
      expect(Number(w)).toBeGreaterThan(100);
      expect(Number(h)).toBeGreaterThan(50);
    });
  });
  it("renders one point and a constant series without NaN in the SVG", async () => {
    const one = await equityChart({ time: [0], series: { a: [100] } });
    const flat = await drawdownChart({ time: [0, DAY, 2 * DAY], series: { a: [5, 5, 5] } });
    const flatSignal = await signalChart({ time: [0, DAY], price: [1, 1], score: [0, 0] });
    for (const svg of [one, flat, flatSignal]) {
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg).not.toMatch(/NaN/);
    }
  });
  it("renders an empty series without throwing (an empty frame)", async () => {
    const svg = await equityChart({ time: [], series: { a: [] } });
    expect(svg.startsWith("<svg")).toBe(true);
  });
  it("renderSvg is deterministic", async () => {
    const spec = barSpec({ category: ["a"], value: [1] });
    expect(await renderSvg(spec)).toBe(await renderSvg(spec));
  });
});

describe("scopeSvgIds", () => {
  it("renumbers ids and their references under a hash prefix; vega's counter does not change the result", () => {
    const svg = '<svg><defs><clipPath id="clip1"><rect/></clipPath></defs><g clip-path="url(#clip1)"></g><use href="#clip1"/></svg>';
    const out = scopeSvgIds(svg);
    const id = /id="([^"]+)"/.exec(out)?.[1] ?? "";
    expect(id).toMatch(/^m[0-9a-z]+-0$/);
    expect(scopeSvgIds(svg.replaceAll("clip1", "clip7"))).toBe(out);
    expect(out).toContain(`url(#${id})`);
    expect(out).toContain(`href="#${id}"`);
    expect(scopeSvgIds(svg)).toBe(out);
    expect(scopeSvgIds(svg.replace("<rect/>", "<rect x=\"1\"/>"))).not.toContain(id);
  });
  it("leaves an SVG without ids unchanged", () => {
    expect(scopeSvgIds("<svg><g/></svg>")).toBe("<svg><g/></svg>");
  });
});
