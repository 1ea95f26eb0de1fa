/**
 * A table-like object read duck-typed, so the report never imports danfo:
 * a danfo DataFrame qualifies (`columns` names and `column(name).values`).
 */
export interface FrameLike {
  readonly columns: readonly string[];
  column(name: string): { readonly values: ArrayLike<unknown> };
}

/** True for a {@link FrameLike} (e.g. a danfo DataFrame). @internal */
export function isFrameLike(value: unknown): value is FrameLike {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { columns?: unknown }).columns) &&
    typeof (value as { column?: unknown }).column === "function"
  );
}

/** Column names and arrays of a plain column record or a {@link FrameLike}. @internal */
export function frameColumns(table: Readonly<Record<string, ArrayLike<unknown>>> | FrameLike): { names: string[]; cols: ArrayLike<unknown>[] } {
  if (isFrameLike(table)) {
    const names = [...table.columns];
    return { names, cols: names.map((name) => table.column(name).values) };
  }
  const names = Object.keys(table);
  return { names, cols: names.map((name) => table[name] as ArrayLike<unknown>) };
}
