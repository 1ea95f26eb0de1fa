import { describe, expect, it } from "vitest";
import { toEpochMs } from "../../src/api/toEpochMs.js";

describe("toEpochMs", () => {
  it("the fast ISO path agrees with Date.parse on every ~25 h step from 1900 to 2100", () => {
    // Reference: V8's Date.parse on the same strings (toISOString output).
    let checked = 0;
    for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2101, 0, 1); t += 86_400_000 + 3_723_456) {
      const iso = new Date(t).toISOString();
      if (toEpochMs(iso) !== t) throw new Error(`${iso}: ${toEpochMs(iso)} != ${t}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(70_000);
  });

  it("leap days: 2024-02-29 valid; impossible fast-path dates fall back to Date.parse", () => {
    expect(toEpochMs("2024-02-29T00:00:00.000Z")).toBe(Date.UTC(2024, 1, 29));
    expect(toEpochMs("2026-13-01T00:00:00.000Z")).toBeNaN();
    expect(toEpochMs("2026-04-31T00:00:00.000Z")).toBe(Date.parse("2026-04-31T00:00:00.000Z"));
  });

  it("seconds vs milliseconds: above 1e11 is ms", () => {
    expect(toEpochMs(1e11)).toBe(1e14); // exactly 1e11 is seconds
    expect(toEpochMs(1e11 + 1)).toBe(1e11 + 1);
    expect(toEpochMs(1_795_348_800)).toBe(1_795_348_800_000);
    expect(toEpochMs("1795348800")).toBe(1_795_348_800_000);
    expect(toEpochMs(0)).toBe(0);
  });

  it("other ISO forms: offsets, no milliseconds, date only, no zone = UTC", () => {
    expect(toEpochMs("2026-11-22T13:00:00+01:00")).toBe(Date.UTC(2026, 10, 22, 12));
    expect(toEpochMs("2026-11-22T12:00:00Z")).toBe(Date.UTC(2026, 10, 22, 12));
    expect(toEpochMs("2026-11-22")).toBe(Date.UTC(2026, 10, 22));
    expect(toEpochMs("2026-11-22T12:00")).toBe(Date.UTC(2026, 10, 22, 12));
  });

  it("garbage is NaN", () => {
    for (const x of [null, undefined, "", "soon", Number.NaN, Number.POSITIVE_INFINITY, {}, [], true]) {
      expect(toEpochMs(x), String(x)).toBeNaN();
    }
  });
});
