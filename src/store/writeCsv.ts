import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { tableColumns, type TableInput } from "./tableColumns.js";
import { writtenTime } from "./timeBound.js";
import { writeFileAtomic } from "./writeFileAtomic.js";

function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * Write a table (Panel, danfo DataFrame or a result with `toDataFrame()`) as
 * CSV (RFC 4180: comma-separated, quoted when needed, `\n` line ends), the
 * export for tools without Parquet. `time` is written as ISO 8601 UTC with
 * milliseconds (`pandas.read_csv(path, parse_dates=["time"])` reads it as
 * UTC), numbers in JavaScript's shortest round-trip form (exact float64 when
 * read back; pandas needs `float_precision="round_trip"`), NaN and missing values as empty fields. Written atomically.
 * @throws InvalidArgumentError for an unreadable table
 * @throws InvalidTimeError for a time that is not finite or outside a Date's range (±8.64e15 ms)
 * @throws FileWriteError when the file cannot be written (a folder, disk full, read-only)
 * @example await writeCsv("btc.csv", createPanel([0], { close: [1.5] })); // "time,close\n1970-01-01T00:00:00.000Z,1.5\n"
 */
export async function writeCsv(path: string, table: TableInput, options: { readonly timeColumn?: string } = {}): Promise<void> {
  if (typeof path !== "string" || path.trim() === "") throw new InvalidArgumentError("path", `writeCsv: path must be a non-empty file path, got ${JSON.stringify(path)}`);
  const t = tableColumns(table, "writeCsv", options.timeColumn);
  const names = [...(t.time === undefined ? [] : ["time"]), ...Object.keys(t.columns)];
  const cols = Object.values(t.columns);
  const n = t.time?.length ?? cols[0]?.length ?? 0;
  const lines = new Array<string>(n + 1);
  lines[0] = names.map(field).join(",");
  for (let i = 0; i < n; i++) {
    const row: string[] = [];
    if (t.time !== undefined) {
      row.push(new Date(writtenTime(t.time[i] as number, "writeCsv", "time", i)).toISOString());
    }
    for (const c of cols) {
      const v = c[i];
      row.push(typeof v === "number" ? (Number.isNaN(v) ? "" : String(v)) : v === null || v === undefined ? "" : field(v));
    }
    lines[i + 1] = row.join(",");
  }
  writeFileAtomic(path, Buffer.from(`${lines.join("\n")}\n`, "utf8"), "writeCsv");
}
