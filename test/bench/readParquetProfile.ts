/**
 * Where one readParquet call's time goes (issue 32, item 5):
 * `npx tsx test/bench/readParquetProfile.ts [file] [PROCS] [CALLS]`.
 * The file defaults to storeForeign.bench.ts's DuckDB-written year (write it
 * first with `npm run bench -- store`). PROCS (4) fresh processes a mode,
 * modes alternating, each making CALLS (6) calls; every call is split into
 * the parts readParquet is made of, each with its process CPU time, wall
 * time and minor page faults:
 * - `import`: parquet-wasm loaded as the library loads it (loadReadCodecs) and its WebAssembly compiled (first call only);
 * - `file`: the file's bytes read into readParquet's reused buffer (readFileBytes);
 * - `decode`: parquet-wasm's readParquet (the bytes copied into WebAssembly
 *   memory, decompressed and decoded into Arrow arrays there) and intoFFI;
 * - `columns`: the Arrow arrays copied into fresh Float64Arrays (readArrowColumn).
 * Modes (env MODES, comma-separated, default `whole,ranged`):
 * - `whole`: the library's path (env PQ_BATCH sets parquet-wasm's batchSize, default 2^30: one batch;
 *   its `reserve` part is reserveDecodeMemory, left out with PQ_RESERVE=0);
 * - `ranged`: parquet-wasm's ParquetFile over a Blob-like object that reads
 *   byte ranges from the file, one column at a time (WebAssembly memory stays
 *   small; its `decode` includes the range reads). Not the library's path:
 *   ParquetFile decodes inside wasm-bindgen's microtasks, where a Rust panic on
 *   a damaged file is an uncaught exception (commit fb3f000 built it into
 *   readParquet; 36 of parquetDamage.test.ts's 120 damaged files never settled);
 * - `rowgroups`: the same ParquetFile, one row group at a time;
 * - `colgroups`: the synchronous readParquet once per group of columns (env PQ_GROUPS, 3), the whole file passed each time;
 * - `worker`: the `ranged` read in a worker thread (readParquetWorkerProto.ts,
 *   bundled by esbuild), its columns transferred; its `decode` is the whole
 *   call (worker start and the worker's own import included; the child's
 *   `import` of parquet-wasm is then not needed by the read).
 * Env PQ_PREWARM=<small Parquet file>: each child first decodes that file 3
 * times (not counted, nor is the import in the first call's `call`), so the
 * big file's first call runs tiered-up code and pays only for fresh memory. Prints best / median per part for the
 * first call and for the warm calls (calls 3.. of each process), the
 * WebAssembly memory size, and the load. No timing is asserted anywhere.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { median } from "./median.js";

type Part = "import" | "file" | "reserve" | "decode" | "columns" | "call";
interface Sample { cpuMs: number; wallMs: number; faults: number }
type Call = Partial<Record<Part, Sample>>;

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const faults = (): number => process.resourceUsage().minorPageFault;

/** A child: CALLS calls of one mode, each part measured, one JSON line out. */
async function child(path: string, mode: string, calls: number): Promise<void> {
  const out: Call[] = [];
  let mark = { c: cpu(), w: performance.now(), f: faults() };
  const lap = (call: Call, part: Part): void => {
    const now = { c: cpu(), w: performance.now(), f: faults() };
    call[part] = { cpuMs: now.c - mark.c, wallMs: now.w - mark.w, faults: now.f - mark.f };
    mark = now;
  };
  const first: Call = {};
  let start = { ...mark };
  const codecs = await (await import("../../src/store/readCodecs.js")).loadReadCodecs();
  const { pq } = codecs;
  const { readFileBytes } = await import("../../src/store/readFileBytes.js");
  const { readArrowSchema, readArrowTable } = await import("../../src/store/arrowCData.js");
  const { readArrowColumn } = await import("../../src/store/arrowColumn.js");
  const { reserveDecodeMemory } = await import("../../src/store/reserveDecodeMemory.js");
  lap(first, "import");
  const scratch = { buffer: Buffer.alloc(0) };
  let worker: Worker | undefined;
  const prewarm = process.env["PQ_PREWARM"];
  if (prewarm !== undefined && prewarm !== "") {
    // The decoder's code run (and tiered up) on a small file first: the big file's first call then pays only for fresh memory.
    for (let k = 0; k < 3; k++) pq.readParquet(readFileBytes(prewarm), { batchSize: 1 << 30 }).intoFFI().free();
    lap({}, "import");
    start = { ...mark }; // the first call's `call` then leaves out the import and the warm-up
  }
  let memoryMb = 0;
  for (let k = 0; k < calls; k++) {
    const call: Call = k === 0 ? first : {};
    const begin = k === 0 ? start : { ...mark };
    const names: string[] = [];
    const columns: Float64Array[] = [];
    const copy = (ffi: { arrayAddrs(): Uint32Array; schemaAddr(): number; free(): void }, only?: string): void => {
      const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
      for (const f of table.schema.fields) {
        if (only !== undefined && f.name !== only) continue;
        const col = table.getChild(f.name) as { type: Parameters<typeof readArrowColumn>[1]; data: Parameters<typeof readArrowColumn>[0] };
        names.push(f.name);
        columns.push(readArrowColumn(col.data, col.type, 0, table.numRows));
      }
    };
    if (mode === "whole") {
      const bytes = readFileBytes(path, scratch);
      lap(call, "file");
      if (process.env["PQ_RESERVE"] !== "0") reserveDecodeMemory(codecs, bytes.length);
      lap(call, "reserve");
      const ffi = pq.readParquet(bytes, { batchSize: Number(process.env["PQ_BATCH"] ?? 2 ** 30) }).intoFFI();
      lap(call, "decode");
      copy(ffi);
      ffi.free();
      lap(call, "columns");
    } else if (mode === "worker") {
      lap(call, "file");
      worker ??= new Worker(process.env["PQ_WORKER_BUNDLE"] as string);
      const w = worker;
      const reply = await new Promise<{ names: string[]; columns: Float64Array[] }>((resolve, reject) => {
        w.once("message", (m: { names: string[]; columns: Float64Array[]; error?: string }) => (m.error === undefined ? resolve(m) : reject(new Error(m.error))));
        w.once("error", reject);
        w.postMessage({ path });
      });
      lap(call, "decode");
      names.push(...reply.names);
      columns.push(...reply.columns);
      lap(call, "columns");
    } else if (mode === "colgroups") {
      const bytes = readFileBytes(path, scratch);
      lap(call, "file");
      const sf = pq.readSchema(bytes).intoFFI();
      const all = readArrowSchema(pq.wasmMemory().buffer, sf.addr()).fields.map((f) => f.name);
      sf.free();
      const G = Number(process.env["PQ_GROUPS"] ?? 3);
      let decode = { cpuMs: 0, wallMs: 0, faults: 0 };
      let cols = { cpuMs: 0, wallMs: 0, faults: 0 };
      const per = Math.ceil(all.length / G);
      for (let g = 0; g < all.length; g += per) {
        const ffi = pq.readParquet(bytes, { columns: all.slice(g, g + per), batchSize: 1 << 30 }).intoFFI();
        lap(call, "decode");
        decode = add(decode, call.decode as Sample);
        copy(ffi);
        ffi.free();
        lap(call, "columns");
        cols = add(cols, call.columns as Sample);
      }
      call.decode = decode;
      call.columns = cols;
    } else {
      lap(call, "file");
      const fd = openSync(path, "r");
      const size = fstatSync(fd).size;
      const blob = {
        size,
        slice: (a: number, b: number) => ({
          arrayBuffer: async (): Promise<ArrayBuffer> => {
            const u = new Uint8Array(Buffer.allocUnsafeSlow(Math.min(b, size) - a).buffer);
            readSync(fd, u, 0, u.length, a);
            return u.buffer as ArrayBuffer;
          },
        }),
      };
      const file = await pq.ParquetFile.fromFile(blob as unknown as Blob);
      const fieldNames: string[] = [];
      const schemaFfi = file.schema().intoFFI();
      for (const f of readArrowSchema(pq.wasmMemory().buffer, schemaFfi.addr()).fields) fieldNames.push(f.name);
      schemaFfi.free();
      let decode = { cpuMs: 0, wallMs: 0, faults: 0 };
      let cols = { cpuMs: 0, wallMs: 0, faults: 0 };
      const groups = mode === "rowgroups" ? file.metadata().numRowGroups() : 0;
      for (const name of mode === "rowgroups" ? Array.from({ length: groups }, (_, g) => g) : fieldNames) {
        const table = await file.read(typeof name === "number" ? { rowGroups: [name], batchSize: 1 << 30 } : { columns: [name], batchSize: 1 << 30 });
        const ffi = table.intoFFI();
        lap(call, "decode");
        decode = add(decode, call.decode as Sample);
        copy(ffi, typeof name === "number" ? undefined : name);
        ffi.free();
        lap(call, "columns");
        cols = add(cols, call.columns as Sample);
      }
      file.free();
      closeSync(fd);
      call.decode = decode;
      call.columns = cols;
    }
    const now = { c: cpu(), w: performance.now(), f: faults() };
    call.call = { cpuMs: now.c - begin.c, wallMs: now.w - begin.w, faults: now.f - begin.f };
    memoryMb = pq.wasmMemory().buffer.byteLength / 2 ** 20;
    if (columns.length === 0 || names.length !== columns.length) throw new Error("no columns read");
    out.push(call);
  }
  await worker?.terminate();
  process.stdout.write(`${JSON.stringify({ calls: out, memoryMb })}\n`);
}

function add(a: Sample, b: Sample): Sample {
  return { cpuMs: a.cpuMs + b.cpuMs, wallMs: a.wallMs + b.wallMs, faults: a.faults + b.faults };
}

if (process.argv[2] === "--child") {
  await child(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5]));
} else {
  const path = process.argv[2] === undefined || process.argv[2] === "" ? join(tmpdir(), "milab-bench-foreign-v1-365d-duckdb.parquet") : process.argv[2];
  const PROCS = Number(process.argv[3] ?? 4);
  const CALLS = Number(process.argv[4] ?? 6);
  if (!existsSync(path)) {
    console.log(`no file ${path}: run \`npm run bench -- store\` first (it writes the DuckDB, pyarrow and our own year files to ${tmpdir()}), or pass a file`);
    process.exit(1);
  }
  const modes = (process.env["MODES"] ?? "whole,ranged").split(",");
  const runs: Record<string, { calls: Call[]; memoryMb: number }[]> = Object.fromEntries(modes.map((m) => [m, []]));
  const loads: number[] = [];
  // The worker prototype runs as compiled JavaScript (a worker thread does not inherit tsx's loader).
  const workerBundle = join(import.meta.dirname, ".readParquetWorkerProto.bundle.mjs");
  if (modes.includes("worker")) {
    const { buildSync } = await import("esbuild");
    buildSync({ entryPoints: [join(import.meta.dirname, "readParquetWorkerProto.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: workerBundle, logLevel: "warning" });
    process.env["PQ_WORKER_BUNDLE"] = workerBundle;
  }
  for (let r = 0; r < PROCS; r++) {
    for (let j = 0; j < modes.length; j++) {
      const mode = modes[(r + j) % modes.length] as string;
      loads.push(loadavg()[0] as number);
      const res = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, "--child", path, mode, String(CALLS)], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } });
      if (res.status !== 0) throw new Error(`${mode}: ${res.stderr}`);
      (runs[mode] as { calls: Call[]; memoryMb: number }[]).push(JSON.parse(res.stdout.trim().split("\n").pop() as string) as { calls: Call[]; memoryMb: number });
    }
  }
  rmSync(workerBundle, { force: true });
  const f = (x: number): string => x.toFixed(0);
  console.log(`readParquet's parts, ${path}, ${PROCS} fresh processes a mode (alternating), ${CALLS} calls each; ms of process CPU (wall) and minor page faults, best / median:`);
  console.log("| mode | call | part | CPU ms | wall ms | faults | WebAssembly memory |");
  console.log("|---|---|---|---|---|---|---|");
  for (const mode of modes) {
    const rs = runs[mode] as { calls: Call[]; memoryMb: number }[];
    for (const [label, pick] of [["first", (c: Call[]) => c.slice(0, 1)], ["warm", (c: Call[]) => c.slice(2)]] as const) {
      for (const part of ["import", "file", "reserve", "decode", "columns", "call"] as const) {
        const xs = rs.flatMap((x) => pick(x.calls)).map((c) => c[part]).filter((s): s is Sample => s !== undefined);
        if (xs.length === 0) continue;
        const cpuMs = xs.map((s) => s.cpuMs);
        const wallMs = xs.map((s) => s.wallMs);
        const fl = xs.map((s) => s.faults);
        console.log(`| ${mode} | ${label} | ${part} | ${f(Math.min(...cpuMs))} / ${f(median(cpuMs))} | ${f(Math.min(...wallMs))} / ${f(median(wallMs))} | ${f(Math.min(...fl))} / ${f(median(fl))} | ${f(median(rs.map((x) => x.memoryMb)))} MB |`);
      }
    }
  }
  console.log(`load average (1 min) while the processes ran: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; now ${loadavg().map((x) => x.toFixed(1)).join(" ")} (2 cores)`);
}
