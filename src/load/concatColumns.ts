import type { RecordColumns } from "./recordsToColumns.js";

/**
 * Stack tables of columns (row-wise), taking the union of their column names
 * in order of first appearance. A column a table lacks is NaN (numeric) or ""
 * (string) there; a column numeric in one table and string in another
 * becomes strings.
 * @example concatColumns([{ a: [1] }, { a: [2], b: ["x"] }]) // { a: [1, 2], b: ["", "x"] }
 */
export function concatColumns(tables: readonly RecordColumns[]): RecordColumns {
  const names: string[] = [];
  const isString = new Map<string, boolean>();
  for (const t of tables) {
    for (const [k, col] of Object.entries(t)) {
      if (!isString.has(k)) names.push(k);
      const str = col.length > 0 && typeof col[0] === "string";
      isString.set(k, (isString.get(k) ?? false) || str);
    }
  }
  const lengths = tables.map((t) => Math.max(0, ...Object.values(t).map((c) => c.length)));
  const out: RecordColumns = {};
  for (const name of names) {
    const str = isString.get(name) === true;
    const col: (number | string)[] = [];
    tables.forEach((t, i) => {
      const src = t[name];
      const n = lengths[i] as number;
      for (let r = 0; r < n; r++) {
        const v = src?.[r];
        col.push(str ? (v === undefined ? "" : typeof v === "number" ? (Number.isNaN(v) ? "" : String(v)) : v) : typeof v === "number" ? v : Number.NaN);
      }
    });
    out[name] = col as number[] | string[];
  }
  return out;
}
