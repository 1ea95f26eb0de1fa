import { SchemaMismatchError } from "../errors/SchemaMismatchError.js";
import { analyticsCoverage, type AnalyticsCoverage } from "./analyticsCoverage.js";
import { ENDPOINTS } from "./endpoints.js";
import { parseAnalyticsPage, type AnalyticsPage } from "./schemas/analytics.js";
import type { ClientEvent } from "./transport/ClientEvent.js";
import type { QueryValue, Transport } from "./transport/createTransport.js";

/**
 * All pages of one analytics query, concatenated, columnar. Turn it into
 * records or a DataFrame with the loaders (`src/load`).
 */
export interface AnalyticsResult {
  /** Column names, e.g. `["time", "coin", "metric_id", "value"]`. */
  readonly columns: string[];
  /** Rows in service order, each aligned with `columns`. */
  readonly rows: unknown[][];
  /** First page's `metadata`, with `row_count` set to the rows returned in total. */
  readonly metadata: Record<string, unknown>;
  /** Pages fetched. */
  readonly pages: number;
  /** True when the service had more pages than `maxPages` allowed: `rows` is a prefix. */
  readonly truncated: boolean;
  /** Shape of the first page. */
  readonly variant: AnalyticsPage["variant"];
  /** What was asked against what came back: a range the service clamped, missing bars, a partial last bar (see analyticsCoverage). */
  readonly coverage: AnalyticsCoverage;
}

const PATH = ENDPOINTS.analyticsQuery;

function paramsFromUri(uri: string): Record<string, QueryValue> {
  const q = uri.indexOf("?");
  const out: Record<string, QueryValue> = {};
  if (q >= 0) for (const [k, v] of new URLSearchParams(uri.slice(q + 1))) out[k] = v;
  return out;
}

function sameParams(a: Readonly<Record<string, QueryValue>>, b: Readonly<Record<string, QueryValue>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => String(a[k]) === String(b[k]));
}

function align(page: AnalyticsPage, columns: readonly string[]): unknown[][] {
  if (page.columns.length === columns.length && page.columns.every((c, i) => c === columns[i])) return page.rows;
  const where = columns.map((c) => page.columns.indexOf(c));
  if (page.columns.length !== columns.length || where.some((i) => i < 0)) {
    throw new SchemaMismatchError(PATH, "columns", [page.variant], [
      `page columns ${JSON.stringify(page.columns)} differ from the first page's ${JSON.stringify(columns)}`,
    ]);
  }
  return page.rows.map((r) => where.map((i) => r[i]));
}

/**
 * Run `/v3/analytics/query` and follow its paging (`next_offset`,
 * `next_cursor`, `next_uri` — only its query string is used, against the
 * client's own baseUrl — or `has_more`) for at most `maxPages` pages. When
 * more remain, the result is returned with `truncated: true` and a
 * `truncated` event (not an error: a long query still gives its first part).
 * Paging stops as well if the service points at the page it just served.
 * @throws SchemaMismatchError when a page has an unknown shape or other columns
 */
export async function queryAnalytics(
  transport: Transport,
  params: Readonly<Record<string, QueryValue>>,
  maxPages: number,
  emit: (event: ClientEvent) => void,
): Promise<AnalyticsResult> {
  let current: Record<string, QueryValue> = { ...params };
  let columns: string[] | undefined;
  let first: AnalyticsPage | undefined;
  const rows: unknown[][] = [];
  let pages = 0;
  let truncated = false;
  for (;;) {
    const { body, url } = await transport(PATH, current);
    const page = parseAnalyticsPage(body, PATH);
    pages++;
    first ??= page;
    columns ??= page.columns;
    const aligned = align(page, columns);
    // Rows are copied: the client's cache keeps the parsed body.
    for (const r of aligned) rows.push(aligned === page.rows ? r.slice() : r);
    const next = page.next;
    if (next === null || page.rows.length === 0) break;
    let following: Record<string, QueryValue>;
    if ("offset" in next) following = { ...params, offset: next.offset };
    else if ("cursor" in next) following = { ...params, cursor: next.cursor };
    else if ("uri" in next) following = paramsFromUri(next.uri);
    else following = { ...params, offset: Number(current["offset"] ?? 0) + page.rows.length };
    if (sameParams(following, current)) break;
    if (pages >= maxPages) {
      truncated = true;
      emit({ type: "truncated", url, pages });
      break;
    }
    current = following;
  }
  const metadata = { ...(first?.metadata ?? {}), row_count: rows.length };
  const coverage = analyticsCoverage(params, first?.query ?? {}, columns ?? [], rows);
  // one warning event for what the service did not give (the result carries it too)
  if (coverage.missing.length > 0) emit({ type: "coverage", url: PATH, message: coverage.missing.join("; ") });
  return { columns: columns ?? [], rows, metadata, pages, truncated, variant: first?.variant ?? "nested", coverage };
}
