import { describe, expect, it } from "vitest";
import { createPanelBuilder } from "../../src/store/createPanelBuilder.js";

const part = (time: number[], v?: number[]) => ({ time: Float64Array.from(time), columns: v === undefined ? {} : { v: Float64Array.from(v) } });

describe("createPanelBuilder", () => {
  it("stacks parts past its capacity; a part without a column gives NaN; parts are not modified", () => {
    const b = createPanelBuilder(["v"], 1);
    const first = part([0, 1], [10, 11]);
    b.push(first);
    b.push(part([2]));
    b.push(part([3, 4, 5], [13, 14, 15]));
    const p = b.finish();
    expect(Array.from(p.time)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(p.columns.v!)).toEqual([10, 11, NaN, 13, 14, 15]);
    expect(Array.from(first.columns.v!)).toEqual([10, 11]);
  });
  it("overlapping parts are sorted and the later row of a repeated time wins", () => {
    const b = createPanelBuilder(["v"], 10);
    b.push(part([0, 2], [1, 2]));
    b.push(part([1, 2], [3, 4]));
    const p = b.finish();
    expect(Array.from(p.time)).toEqual([0, 1, 2]);
    expect(Array.from(p.columns.v!)).toEqual([1, 3, 4]);
  });
  it("nothing pushed gives an empty Panel with the columns", () => {
    const p = createPanelBuilder(["a", "b"], 100).finish();
    expect(p.time.length).toBe(0);
    expect(Object.keys(p.columns)).toEqual(["a", "b"]);
  });
});
