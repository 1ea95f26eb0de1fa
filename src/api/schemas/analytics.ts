import { z } from "zod";
import { schemaMismatch } from "../schemaMismatch.js";

const rows = z.custom<unknown[][]>((x) => Array.isArray(x) && x.every((r) => Array.isArray(r)), {
  message: "expected an array of row arrays",
});
const records = z.custom<Record<string, unknown>[]>((x) => Array.isArray(x), { message: "expected an array of records" });
const columns = z.array(z.string());

/** Default (`nested`) page: `{query, result: {columns, rows}, metadata, next_offset}`. */
export const analyticsNestedSchema = z.looseObject({
  query: z.unknown().optional(),
  result: z.looseObject({ columns, rows }),
  metadata: z.record(z.string(), z.unknown()).optional(),
  next_offset: z.number().int().nonnegative().nullable().optional(),
  next_cursor: z.string().nullable().optional(),
  next_uri: z.string().nullable().optional(),
});

/** `columns` page: `{columns, rows, next_uri}` at the top level. */
export const analyticsColumnsSchema = z.looseObject({
  columns,
  rows,
  metadata: z.record(z.string(), z.unknown()).optional(),
  next_uri: z.string().nullable().optional(),
  next_offset: z.number().int().nonnegative().nullable().optional(),
});

/** `records` page: `{data: [{col: v}], has_more, next_cursor}`. */
export const analyticsRecordsSchema = z.looseObject({
  data: records,
  metadata: z.record(z.string(), z.unknown()).optional(),
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
  next_offset: z.number().int().nonnegative().nullable().optional(),
  next_uri: z.string().nullable().optional(),
});

/** Where the next page is, if any. */
export type AnalyticsNext = { offset: number } | { cursor: string } | { uri: string } | { advance: true } | null;

/** One page of `/v3/analytics/query`, columnar. */
export interface AnalyticsPage {
  readonly columns: string[];
  readonly rows: unknown[][];
  readonly metadata: Record<string, unknown>;
  readonly variant: "nested" | "columns" | "records";
  readonly next: AnalyticsNext;
  /** The request as the service echoed it (`query` of the nested form: its start and end after any clamping), {} when not echoed. */
  readonly query: Record<string, unknown>;
}

function nextOf(o: {
  next_offset?: number | null | undefined;
  next_cursor?: string | null | undefined;
  next_uri?: string | null | undefined;
  has_more?: boolean | undefined;
}): AnalyticsNext {
  if (o.has_more === false) return null;
  if (typeof o.next_offset === "number") return { offset: o.next_offset };
  if (typeof o.next_cursor === "string" && o.next_cursor !== "") return { cursor: o.next_cursor };
  if (typeof o.next_uri === "string" && o.next_uri !== "") return { uri: o.next_uri };
  return o.has_more === true ? { advance: true } : null;
}

/** Records -> columns (first-seen key order) and rows (missing cells are null). */
function recordsToRows(data: readonly Record<string, unknown>[]): { columns: string[]; rows: unknown[][] } {
  const index = new Map<string, number>();
  for (const rec of data) for (const k of Object.keys(rec)) if (!index.has(k)) index.set(k, index.size);
  const cols = [...index.keys()];
  return { columns: cols, rows: data.map((rec) => cols.map((c) => (rec[c] === undefined ? null : rec[c]))) };
}

/**
 * Validate one `/v3/analytics/query` page and make it columnar. Accepts the
 * `nested`, `columns` and `records` forms (a bare array of records counts as
 * `records`). The next page is given by `next_offset`, `next_cursor`,
 * `next_uri`, or `has_more: true` alone (then: offset + rows received).
 * @throws SchemaMismatchError naming the three forms
 */
export function parseAnalyticsPage(body: unknown, endpoint = "/v3/analytics/query"): AnalyticsPage {
  const nested = analyticsNestedSchema.safeParse(body);
  if (nested.success) {
    const d = nested.data;
    const query = typeof d.query === "object" && d.query !== null && !Array.isArray(d.query) ? (d.query as Record<string, unknown>) : {};
    return { columns: d.result.columns, rows: d.result.rows, metadata: d.metadata ?? {}, variant: "nested", next: nextOf(d), query };
  }
  const cols = analyticsColumnsSchema.safeParse(body);
  if (cols.success) {
    const d = cols.data;
    return { columns: d.columns, rows: d.rows, metadata: d.metadata ?? {}, variant: "columns", next: nextOf(d), query: {} };
  }
  const recs = analyticsRecordsSchema.safeParse(Array.isArray(body) ? { data: body } : body);
  if (recs.success) {
    const d = recs.data;
    if (!d.data.every((r) => typeof r === "object" && r !== null && !Array.isArray(r))) {
      throw schemaMismatch(endpoint, [["records", "data must be an array of objects"]]);
    }
    return { ...recordsToRows(d.data), metadata: d.metadata ?? {}, variant: "records", next: nextOf(d), query: {} };
  }
  throw schemaMismatch(endpoint, [
    ["nested", nested.error],
    ["columns", cols.error],
    ["records", recs.error],
  ]);
}
