/**
 * THE partial-bar rule, one for the library: a bar covering [start, end) (labelled by its open
 * time, as candles are) is complete only when the data reach its `end`; a last bar they do not
 * reach is partial, its values provisional (a candle's volume 560 where a full bar has
 * thousands). Where the data reach:
 * - closed "right" (a time stamps the close of what it measures, or a service's answer time):
 *   `last` itself;
 * - closed "left" (a time stamps an open): `last` plus the input's `spacing` (the median of its
 *   distinct time steps: the span the last input covers); with fewer than two distinct times the
 *   spacing is unknown (NaN) and the bar is partial.
 * An input row that is itself a partial bar (a loader flagged it) makes the bar holding it partial:
 * the data reach no further than that row's open.
 * Who follows it: `analyticsCoverage` (a candle not closed at the end the service served is
 * `partialLastBar` in a loader's `coverage`), `resample` and `resampleOHLC` (a partial last bar
 * is dropped, unless `partialLastBar: "keep"`; so is the bar holding an input flagged partial),
 * and `backtest` (keeps every bar, the outputs have the input's length, and flags
 * `partialLastBar` when its `data` came flagged: the last mark is at a provisional price).
 * @example lastBarComplete(Date.UTC(2026, 0, 1, 0, 59), 60_000, Date.UTC(2026, 0, 1, 1), "left") // true: the 00:59 minute reaches 01:00
 * @example lastBarComplete(Date.UTC(2026, 0, 1, 0, 59), 60_000, Date.UTC(2026, 0, 1, 1), "left", { lastInputPartial: true }) // false: the 00:59 minute was still open
 * @internal
 */
export function lastBarComplete(
  last: number,
  spacing: number,
  end: number,
  closed: "left" | "right",
  input: { readonly lastInputPartial?: boolean } = {},
): boolean {
  if (input.lastInputPartial === true) return false;
  return closed === "right" ? last >= end : last + spacing >= end;
}
