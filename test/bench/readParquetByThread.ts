/**
 * A fresh process's first readParquet call by part and by thread (issue 32,
 * item 5): `npx tsx test/bench/readParquetByThread.ts [file] [PROCS]`.
 * The file defaults to storeForeign.bench.ts's pyarrow-written year (write
 * it first with `npm run bench -- store`). PROCS (6) fresh processes a mode,
 * modes alternating (env MODES, comma-separated, default `plain,pool`), each
 * running the esbuild bundle of this file (compiled JavaScript, as the
 * library runs), with the V8 flags in env NODE_FLAGS if any (for scratch
 * runs only: the library sets none). Each part of the first call, then of one
 * warm call, is timed as process CPU (all threads), the main thread's CPU
 * (Linux /proc/self/task/<pid>/stat, 10 ms ticks), wall and minor page
 * faults:
 * - `load`: loadReadCodecs (the .wasm read and compiled, the glue imported);
 * - `file`: the file into a block of WebAssembly memory (`plain`:
 *   fileIntoWasm, as a warm call does; `pool`: firstFileIntoWasm, as the
 *   call that loads parquet-wasm does; `touch`: fileIntoWasm after every page
 *   of the memory grown for the decode is written on the main thread, the
 *   writes timed as `touch`: the decode with no fresh page);
 * - `decode`: parquet-wasm's decode and intoFFI;
 * - `columns`: the Arrow arrays copied into fresh Float64Arrays.
 * No timing is asserted anywhere.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { readArrowTable, type ArrowChunk, type ArrowType } from "../../src/store/arrowCData.js";
import { readArrowColumn } from "../../src/store/arrowColumn.js";
import { decodeParquetBlock } from "../../src/store/decodeParquetBlock.js";
import { firstFileIntoWasm } from "../../src/store/firstFileIntoWasm.js";
import { loadReadCodecs } from "../../src/store/readCodecs.js";
import { reserveDecodeMemory } from "../../src/store/reserveDecodeMemory.js";
import { fileIntoWasm, type WasmFileBlock } from "../../src/store/wasmFileBlock.js";
import { median } from "./median.js";

/** [process CPU ms, main-thread CPU ms, wall ms, faults] of one part. */
type Sample = [number, number, number, number];

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const mainCpu = (): number => {
  const fields = (readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1] as string).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const now = (): Sample => [cpu(), mainCpu(), performance.now(), process.resourceUsage().minorPageFault];

async function child(path: string, mode: string): Promise<void> {
  const parts: Record<string, Sample> = {};
  let mark = now();
  const lap = (part: string): void => {
    const t = now();
    parts[part] = t.map((x, i) => Math.round(x - (mark[i] as number))) as Sample;
    mark = t;
  };
  const codecs = await loadReadCodecs();
  lap("load");
  for (const call of ["", "warm "]) {
    let block: WasmFileBlock | undefined;
    if (call === "" && mode === "pool") block = await firstFileIntoWasm(codecs, path);
    if (call === "" && mode === "touch") {
      reserveDecodeMemory(codecs, statSync(path).size);
      const memory = new Uint8Array(codecs.wasm.memory.buffer);
      for (let i = 0; i < memory.length; i += 4096) memory[i] = 0;
      lap("touch");
    }
    block ??= fileIntoWasm(codecs, path);
    lap(`${call}file`);
    const ffi = decodeParquetBlock(codecs, block, { batchSize: 2 ** 30 }).intoFFI();
    lap(`${call}decode`);
    const table = readArrowTable(codecs.wasm.memory.buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    for (const f of table.schema.fields) {
      const col = table.getChild(f.name) as { type: ArrowType; data: readonly ArrowChunk[] };
      readArrowColumn(col.data, col.type, 0, table.numRows);
    }
    ffi.free();
    lap(`${call}columns`);
  }
  process.stdout.write(`${JSON.stringify(parts)}\n`);
}

if (process.env["PQ_BY_THREAD_CHILD"] === "1") {
  await child(process.argv[2] as string, process.argv[3] as string);
} else {
  const file = process.argv[2] || join(tmpdir(), "milab-bench-foreign-v1-365d-pyarrow-25.0.1.parquet");
  const procs = Number(process.argv[3] ?? 6);
  const modes = (process.env["MODES"] ?? "plain,pool").split(",");
  if (!existsSync(file)) throw new Error(`no ${file}: write it with npm run bench -- store, or name a file`);
  const bundle = join(import.meta.dirname, ".readParquetByThread.bundle.mjs");
  buildSync({ entryPoints: [import.meta.filename], bundle: true, platform: "node", format: "esm", packages: "external", outfile: bundle, logLevel: "warning" });
  const flags = (process.env["NODE_FLAGS"] ?? "").split(" ").filter((f) => f !== "");
  const runs: Record<string, Record<string, Sample>[]> = {};
  const loads: number[] = [];
  try {
    for (let r = 0; r < procs; r++) {
      for (const mode of modes) {
        loads.push(loadavg()[0] as number);
        const out = spawnSync(process.execPath, [...flags, bundle, file, mode], { encoding: "utf8", env: { ...process.env, PQ_BY_THREAD_CHILD: "1" } });
        if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`);
        (runs[mode] ??= []).push(JSON.parse(out.stdout.trim().split("\n").pop() as string) as Record<string, Sample>);
      }
    }
  } finally {
    rmSync(bundle, { force: true });
  }
  console.log(`first readParquet call of ${file} by part, ${procs} fresh processes a mode${flags.length > 0 ? `, node ${flags.join(" ")}` : ""}, load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
  console.log("best / median of each mode's process CPU ms, main-thread CPU ms, wall ms and faults:");
  console.log(`| part | ${modes.map((m) => `${m}: CPU | main | wall | faults`).join(" | ")} |`);
  console.log(`|---|${modes.map(() => "---|---|---|---").join("|")}|`);
  const names = [...new Set(modes.flatMap((m) => Object.keys((runs[m] as Record<string, Sample>[])[0] as object)))];
  for (const part of names) {
    const cells = modes.map((m) => {
      const xs = (runs[m] as Record<string, Sample>[]).map((x) => x[part]).filter((x): x is Sample => x !== undefined);
      if (xs.length === 0) return " | | | ";
      return [0, 1, 2, 3].map((i) => `${Math.min(...xs.map((x) => x[i] as number))} / ${median(xs.map((x) => x[i] as number))}`).join(" | ");
    });
    console.log(`| ${part} | ${cells.join(" | ")} |`);
  }
  console.log(`load now ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
}
