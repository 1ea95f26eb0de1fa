type Rec = Record<string, unknown>;

function isRecord(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * The first array of records (plain objects) inside a JSON value, searched
 * breadth-first in key order: top-level arrays before nested ones, so
 * `{meta: {...}, alerts: [{...}], nested: {rows: [...]}}` gives `alerts`.
 * An array counts when it is non-empty and every element is a plain object.
 * Returns `undefined` when there is none (the value is not modified; the
 * records are returned as they are, not copied). Loaders use it to turn
 * endpoints whose fields the spec does not show into DataFrames.
 * @example firstRecordArray({ ok: true, data: { items: [{ a: 1 }] } }) // [{ a: 1 }]
 */
export function firstRecordArray(value: unknown): Rec[] | undefined {
  const queue: unknown[] = [value];
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    const node = queue[i];
    if (Array.isArray(node)) {
      if (node.length > 0 && node.every(isRecord)) return node as Rec[];
      continue;
    }
    if (!isRecord(node)) continue;
    for (const child of Object.values(node)) {
      if (Array.isArray(child) && child.length > 0 && child.every(isRecord)) return child as Rec[];
    }
    for (const child of Object.values(node)) if (typeof child === "object" && child !== null) queue.push(child);
  }
  return undefined;
}
