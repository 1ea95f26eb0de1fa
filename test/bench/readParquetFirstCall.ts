/**
 * A fresh process's first readParquet call taken apart (issue 32, item 5):
 * `npx tsx test/bench/readParquetFirstCall.ts [file] [PROCS]`.
 * The file defaults to storeForeign.bench.ts's DuckDB-written year (write it
 * first with `npm run bench -- store`). PROCS (5) fresh processes a mode,
 * modes alternating (env MODES, comma-separated, default `before,split,jsread,after`);
 * each child runs the bundle esbuild makes of this file (compiled JavaScript,
 * as the library runs) and times each part of its first call and then one
 * warm call (process CPU, wall, minor page faults):
 * - `wasmread`: parquet-wasm's .wasm (4.95 MB) read from disk;
 * - `compile`: WebAssembly.Module of it (`before`: the whole import of
 *   parquet-wasm's node build, which reads and compiles it synchronously;
 *   `after`: what is left of loadReadCodecs after the file's read);
 * - `instantiate`: WebAssembly.Instance and wasm-bindgen's start;
 * - `file`: the Parquet file into the reused buffer (readFileBytes);
 * - `schema`: readSchema of the footer alone;
 * - `reserve`: reserveDecodeMemory (the decode's WebAssembly memory in one step);
 * - `decode`: parquet-wasm's readParquet of every column and intoFFI;
 * - `columns`: the Arrow arrays copied into fresh Float64Arrays.
 * Modes: `before` = the library before this file (import("parquet-wasm"),
 * its node build; the reservation a buffer of zeros copied in by
 * readSchema); `split` = parquet-wasm's esm build compiled synchronously, so
 * compile and instantiate are timed apart, with the reservation as it is
 * now (the module's allocator: malloc and free, no page touched); `jsread` =
 * the library until 2026-11-28 15:00 (loadReadCodecs: the .wasm compiled
 * asynchronously, off the main thread, while the file is read into a
 * JavaScript buffer that parquet-wasm's glue then copies into its memory);
 * `after` = the library now (the codecs loaded first, then the file read
 * straight into a block of WebAssembly memory, wasmFileBlock.ts, and decoded
 * there, decodeParquetBlock.ts). Env PQ_BATCH sets the decode's batch size
 * (rows; default 2^30, one batch). No timing is asserted anywhere.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { readArrowSchema, readArrowTable, type ArrowChunk, type ArrowType } from "../../src/store/arrowCData.js";
import { readArrowColumn } from "../../src/store/arrowColumn.js";
import { loadReadCodecs, type ReadCodecs } from "../../src/store/readCodecs.js";
import { readFileBytes } from "../../src/store/readFileBytes.js";
import { reserveDecodeMemory } from "../../src/store/reserveDecodeMemory.js";
import { decodeParquetBlock } from "../../src/store/decodeParquetBlock.js";
import { bytesIntoWasm, fileIntoWasm, wasmFileBytes, type WasmFileBlock } from "../../src/store/wasmFileBlock.js";
import { median } from "./median.js";

const PARTS = ["wasmread", "compile", "instantiate", "file", "schema", "reserve", "decode", "columns", "first", "warm"] as const;
type Part = (typeof PARTS)[number];
interface Sample { cpuMs: number; wallMs: number; faults: number }

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};

function footerOnly(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  const metaLen = new DataView(bytes.buffer, bytes.byteOffset + n - 8, 4).getUint32(0, true);
  const out = new Uint8Array(metaLen + 12);
  out.set([0x50, 0x41, 0x52, 0x31]);
  out.set(bytes.subarray(n - 8 - metaLen), 4);
  return out;
}

async function child(path: string, mode: string): Promise<void> {
  const parts: Partial<Record<Part, Sample>> = {};
  let mark = { c: cpu(), w: performance.now(), f: process.resourceUsage().minorPageFault };
  const begin = { ...mark };
  const lap = (part: Part, from = mark): void => {
    const now = { c: cpu(), w: performance.now(), f: process.resourceUsage().minorPageFault };
    parts[part] = { cpuMs: now.c - from.c, wallMs: now.w - from.w, faults: now.f - from.f };
    mark = now;
  };
  const scratch = { buffer: Buffer.alloc(0) };
  let codecs: ReadCodecs;
  let bytes: Buffer;
  let block: WasmFileBlock | undefined;
  if (mode === "before") {
    const pq = (await import("parquet-wasm")) as unknown as ReadCodecs["pq"];
    // The reservation as it was: a buffer of zeros copied in by readSchema (the allocator's `wasm` is not reachable in the node build).
    const memory = { buffer: { get byteLength() { return pq.wasmMemory().buffer.byteLength; } } };
    const zeros = { memory, __wbindgen_malloc: (n: number) => { try { pq.readSchema(new Uint8Array(n)); } catch { /* zeros are no file */ } return 0; }, __wbindgen_free: () => undefined };
    codecs = { pq, wasm: zeros as unknown as ReadCodecs["wasm"] };
    lap("compile");
    bytes = readFileBytes(path, scratch);
    lap("file");
  } else if (mode === "split") {
    const esm = await import("parquet-wasm/esm");
    const wasmBytes = readFileSync(createRequire(import.meta.url).resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"));
    lap("wasmread");
    const module = new WebAssembly.Module(wasmBytes);
    lap("compile");
    codecs = { pq: esm, wasm: esm.initSync({ module }) };
    lap("instantiate");
    bytes = readFileBytes(path, scratch);
    lap("file");
  } else if (mode === "jsread") {
    const loading = loadReadCodecs();
    bytes = readFileBytes(path, scratch);
    lap("file");
    codecs = await loading;
    lap("compile");
  } else {
    codecs = await loadReadCodecs();
    lap("compile");
    block = fileIntoWasm(codecs, path);
    lap("file");
    bytes = Buffer.from(footerOnly(wasmFileBytes(codecs, block)));
  }
  const { pq } = codecs;
  const sf = pq.readSchema(footerOnly(bytes)).intoFFI();
  const names = readArrowSchema(pq.wasmMemory().buffer, sf.addr()).fields.map((f) => f.name);
  sf.free();
  lap("schema");
  const decodeAll = (b: Uint8Array | WasmFileBlock, timed: boolean): number => {
    const options = { columns: names, batchSize: Number(process.env["PQ_BATCH"] ?? 2 ** 30) };
    let ffi;
    if (mode === "before") {
      reserveDecodeMemory(codecs, (b as Uint8Array).length);
      if (timed) lap("reserve");
      ffi = pq.readParquet(b as Uint8Array, options).intoFFI();
    } else {
      const inWasm = b instanceof Uint8Array ? bytesIntoWasm(codecs, b) : b; // bytesIntoWasm reserves first
      if (timed) lap("reserve");
      ffi = decodeParquetBlock(codecs, inWasm, { batchSize: options.batchSize }).intoFFI();
    }
    if (timed) lap("decode");
    const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    let values = 0;
    for (const name of names) {
      const col = table.getChild(name) as { type: ArrowType; data: readonly ArrowChunk[] };
      values += readArrowColumn(col.data, col.type, 0, table.numRows).length;
    }
    ffi.free();
    if (timed) lap("columns");
    return values;
  };
  const values = decodeAll(block ?? bytes, true);
  lap("first", begin);
  const w0 = { ...mark };
  decodeAll(block === undefined ? readFileBytes(path, scratch) : fileIntoWasm(codecs, path), false);
  lap("warm", w0);
  process.stdout.write(`${JSON.stringify({ parts, values, memoryMb: pq.wasmMemory().buffer.byteLength / 2 ** 20 })}\n`);
}

if (process.argv[2] === "--child") {
  await child(process.argv[3] as string, process.argv[4] as string);
} else {
  const path = process.argv[2] === undefined || process.argv[2] === "" ? join(tmpdir(), "milab-bench-foreign-v1-365d-duckdb.parquet") : process.argv[2];
  const PROCS = Number(process.argv[3] ?? 5);
  if (!existsSync(path)) {
    console.log(`no file ${path}: run \`npm run bench -- store\` first, or pass a file`);
    process.exit(1);
  }
  const modes = (process.env["MODES"] ?? "before,split,jsread,after").split(",");
  const bundle = join(import.meta.dirname, ".readParquetFirstCall.bundle.mjs");
  buildSync({ entryPoints: [import.meta.filename], bundle: true, platform: "node", format: "esm", packages: "external", outfile: bundle, logLevel: "warning" });
  const runs: Record<string, { parts: Partial<Record<Part, Sample>>; values: number; memoryMb: number }[]> = {};
  const loads: number[] = [];
  try {
    for (let r = 0; r < PROCS; r++) {
      for (let j = 0; j < modes.length; j++) {
        const mode = modes[(r + j) % modes.length] as string;
        loads.push(loadavg()[0] as number);
        const out = spawnSync(process.execPath, [bundle, "--child", path, mode], { encoding: "utf8" });
        if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`);
        (runs[mode] ??= []).push(JSON.parse(out.stdout.trim().split("\n").pop() as string));
      }
    }
  } finally {
    rmSync(bundle, { force: true });
  }
  const values = (runs[modes[0] as string]?.[0] as { values: number }).values;
  console.log(`first readParquet call of ${path} (${values} values), ${PROCS} fresh processes a mode, load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
  console.log(`process CPU ms best / median (wall median; faults median) per part:`);
  console.log(`| part | ${modes.join(" | ")} |`);
  console.log(`|---|${modes.map(() => "---").join("|")}|`);
  for (const part of PARTS) {
    const cells = modes.map((m) => {
      const xs = (runs[m] ?? []).map((r) => r.parts[part]).filter((s): s is Sample => s !== undefined);
      if (xs.length === 0) return "";
      const c = xs.map((s) => s.cpuMs);
      return `${Math.min(...c).toFixed(0)} / ${median(c).toFixed(0)} (${median(xs.map((s) => s.wallMs)).toFixed(0)}; ${median(xs.map((s) => s.faults)).toFixed(0)})`;
    });
    console.log(`| ${part} | ${cells.join(" | ")} |`);
  }
  const rate = modes.map((m) => {
    const w = (runs[m] ?? []).map((r) => (r.parts.first as Sample).wallMs);
    const c = (runs[m] ?? []).map((r) => (r.parts.first as Sample).cpuMs);
    return `${m}: first call ${(values / (median(w) / 1e3)).toExponential(2)} values/s by wall median, ${(values / (median(c) / 1e3)).toExponential(2)} by CPU median`;
  });
  console.log(rate.join("; "));
  console.log(`WebAssembly memory after: ${modes.map((m) => `${m} ${(runs[m]?.[0]?.memoryMb ?? 0).toFixed(0)} MiB`).join(", ")}; load now ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
}
