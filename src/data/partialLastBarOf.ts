/**
 * Whether a table's last row is a bar still open when it was loaded: what a loader says in the
 * `coverage` it puts on its frame (`loadAnalyticsQuery`: `df.coverage.partialLastBar`), carried
 * by `fromDataFrame` onto the Panel. False for a table that says nothing. See lastBarComplete
 * for the rule and who follows it.
 * @example partialLastBarOf(await loadAnalyticsQuery(client, { dataset: "candles", coin: "BTC", interval: "1h" })) // true while the last hour is open
 * @internal
 */
export function partialLastBarOf(table: unknown): boolean {
  if (typeof table !== "object" || table === null) return false;
  const coverage = (table as { coverage?: unknown }).coverage;
  return typeof coverage === "object" && coverage !== null && (coverage as { partialLastBar?: unknown }).partialLastBar === true;
}
