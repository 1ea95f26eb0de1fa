/**
 * A writer process for the SQL-beside-writers check: argv = store dir, writer
 * number k. Saves metric `btc_m<k>` over three UTC days from 2026-11-01, 60
 * one-minute points a save, round and round until `<dir>/.stop` exists; point
 * i's value is {@link sqlWriterValue}. After each acknowledged save it rewrites
 * `<dir>/.acked-<k>` with `<points acknowledged from minute 0> <saves>`.
 * Prints `done <saves>`.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../../src/store/index.js";
import { SQL_WRITER_POINTS, SQL_WRITER_T0, sqlWriterValue } from "./sqlWriterValue.js";

const [dir, k] = process.argv.slice(2) as [string, string];
const store = openStore(dir, { lockTimeoutMs: 600_000 });
let saves = 0;
let acked = 0;
for (let i0 = 0; !existsSync(join(dir, ".stop")); i0 = (i0 + 60) % SQL_WRITER_POINTS) {
  const time = Array.from({ length: 60 }, (_, j) => SQL_WRITER_T0 + (i0 + j) * 60_000);
  await store.saveHistory({ metricId: `btc_m${k}`, time, value: time.map((t) => sqlWriterValue(t, Number(k))) });
  saves++;
  acked = Math.max(acked, i0 + 60);
  writeFileSync(join(dir, `.acked-${k}`), `${acked} ${saves}`);
}
store.close();
process.stdout.write(`done ${saves}\n`);
