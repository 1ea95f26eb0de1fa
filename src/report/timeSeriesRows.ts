import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { downsampleIndicesMany } from "./downsample.js";

/** Several series over one time axis: `time` in epoch ms (UTC), one array per series name. */
export interface TimeSeriesInput {
  readonly time: ArrayLike<number>;
  readonly series: Readonly<Record<string, ArrayLike<number>>>;
}

/** One row of the long table handed to vega-lite. @internal */
export interface SeriesRow {
  t: number;
  v: number | null;
  s: string;
}

/**
 * Long-format rows `{t, v, s}` of several series for vega-lite, min-max
 * downsampled to about `maxPoints` points per series (extremes kept); NaN
 * becomes null, which vega-lite leaves out.
 * @throws InvalidArgumentError when a series' length differs from `time`'s
 * @internal
 */
export function timeSeriesRows(where: string, input: TimeSeriesInput, maxPoints: number): SeriesRow[] {
  const n = input.time.length;
  const names = Object.keys(input.series);
  for (const name of names) {
    const len = (input.series[name] as ArrayLike<number>).length;
    if (len !== n) {
      throw new InvalidArgumentError("series", `${where}: series ${JSON.stringify(name)} has ${len} values but time has ${n}; pass arrays of the same length`);
    }
  }
  const arrays = names.map((name) => input.series[name] as ArrayLike<number>);
  const idx = downsampleIndicesMany(arrays, n, maxPoints);
  const rows: SeriesRow[] = [];
  names.forEach((name, j) => {
    const values = arrays[j] as ArrayLike<number>;
    for (const i of idx) {
      const v = values[i] as number;
      rows.push({ t: input.time[i] as number, v: Number.isFinite(v) ? v : null, s: name });
    }
  });
  return rows;
}
