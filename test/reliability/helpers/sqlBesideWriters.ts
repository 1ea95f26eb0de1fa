/**
 * SQL beside writing processes (issue 31, defect 1), as a script:
 *   npx tsx test/reliability/helpers/sqlBesideWriters.ts [seconds=60] [writers=2]
 * Starts the writers (sqlWriter.ts) on a fresh store and, once each has saved,
 * runs `store.queryColumns` over its `history` view for `seconds` and until
 * at least `minQueries` queries ran and each writer saved `minSaves` times
 * meanwhile (so a busy machine lengthens the run instead of emptying it). Every query's
 * rows are checked against what the writers acknowledged before it started:
 * each value equals what was saved at its time (sqlWriterValue), no time
 * twice, and every acknowledged point is there. Prints one JSON line
 * `{ queries, failed, wrongRows, missing, firstError }`; exported as
 * {@link sqlBesideWriters} for the suite's shorter run.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "../../../src/store/index.js";
import { bundleChild } from "../../support/bundleChild.js";
import { SQL_WRITER_T0, sqlWriterValue } from "./sqlWriterValue.js";

const here = dirname(fileURLToPath(import.meta.url));

export interface SqlBesideWritersResult {
  readonly queries: number;
  readonly failed: number;
  readonly wrongRows: number;
  readonly missing: number;
  readonly saves: number;
  readonly firstError: string | undefined;
}

/** Writer k's progress: points acknowledged from minute 0, and saves. */
function progress(dir: string, k: number): { acked: number; saves: number } {
  const p = join(dir, `.acked-${k}`);
  if (!existsSync(p)) return { acked: 0, saves: 0 };
  const [a, s] = readFileSync(p, "utf8").split(" ").map(Number);
  return { acked: Number.isFinite(a) ? (a as number) : 0, saves: Number.isFinite(s) ? (s as number) : 0 };
}
const acked = (dir: string, k: number): number => progress(dir, k).acked;

export async function sqlBesideWriters(seconds: number, writers = 2, minQueries = 10, minSaves = 10): Promise<SqlBesideWritersResult> {
  const dir = mkdtempSync(join(tmpdir(), "milab-sql-writers-"));
  const children = Array.from({ length: writers }, (_, k) => {
    const child = spawn(process.execPath, [bundleChild(join(here, "sqlWriter.ts")), dir, String(k)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    return new Promise<number>((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve(Number(/done (\d+)/.exec(out)?.[1] ?? 0)) : reject(new Error(`writer ${k} exited ${code}`)))));
  });
  const store = openStore(dir);
  let queries = 0;
  let failed = 0;
  let wrongRows = 0;
  let missing = 0;
  let firstError: string | undefined;
  const names = Array.from({ length: writers }, (_, k) => `m${k}`);
  try {
    while (names.some((_, k) => progress(dir, k).saves === 0)) await new Promise((r) => setTimeout(r, 20));
    const start = Date.now();
    const savesAtStart = names.map((_, k) => progress(dir, k).saves);
    const enough = (): boolean => Date.now() - start >= seconds * 1000 && queries >= minQueries && names.every((_, k) => progress(dir, k).saves - (savesAtStart[k] as number) >= minSaves);
    while (!enough()) {
      const before = names.map((_, k) => acked(dir, k));
      queries++;
      let cols: Readonly<Record<string, Float64Array | string[]>>;
      try {
        cols = await store.queryColumns(`select * from history where coin = 'btc' order by time`);
      } catch (e) {
        failed++;
        firstError ??= e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
        continue;
      }
      const time = cols["time"] as Float64Array | undefined;
      if (time === undefined) {
        if (before.some((n) => n > 0)) missing++;
        continue;
      }
      for (let i = 1; i < time.length; i++) if (!(time[i]! > time[i - 1]!)) wrongRows++;
      names.forEach((name, k) => {
        const col = cols[name] as Float64Array | undefined;
        let have = 0;
        if (col !== undefined) {
          for (let i = 0; i < time.length; i++) {
            const v = col[i]!;
            if (v !== v) continue;
            if (v !== sqlWriterValue(time[i]!, k)) wrongRows++;
            else if (time[i]! < SQL_WRITER_T0 + before[k]! * 60_000) have++;
          }
        }
        if (have < before[k]!) missing += before[k]! - have;
      });
    }
  } finally {
    store.close();
    writeFileSync(join(dir, ".stop"), "");
  }
  const saves = (await Promise.all(children)).reduce((a, b) => a + b, 0);
  rmSync(dir, { recursive: true, force: true });
  return { queries, failed, wrongRows, missing, saves, firstError };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const seconds = Number(process.argv[2] ?? 60);
  const writers = Number(process.argv[3] ?? 2);
  console.log(JSON.stringify(await sqlBesideWriters(seconds, writers)));
}
