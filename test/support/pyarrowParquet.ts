/**
 * Parquet written by pyarrow itself, the way a pandas user writes it:
 * `df.to_parquet(path)` with its defaults (pyarrow engine, SNAPPY,
 * dictionary pages falling back to PLAIN, a `DatetimeIndex` named "time"
 * stored as a TIMESTAMP ns column, pandas' schema metadata), run under
 * Debian's /usr/bin/python3 with its pandas and numpy.
 *
 * Debian 12 has no python3-pyarrow; the machine's local wheel files do
 * (pyarrow 25.0.1 for Python 3.11). Installed apart from Debian's packages:
 *   /usr/bin/python3 -m pip install --no-index --find-links /opt/pypi/files --no-deps --target /opt/milab-pyarrow pyarrow==25.0.1
 * and found through MILAB_PYARROW_PATH (default /opt/milab-pyarrow).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where pyarrow was installed (pip --target). */
export const PYARROW_PATH = process.env["MILAB_PYARROW_PATH"] ?? "/opt/milab-pyarrow";

const env = (): NodeJS.ProcessEnv => ({ ...process.env, PYTHONPATH: [PYARROW_PATH, process.env["PYTHONPATH"]].filter(Boolean).join(":") });

/** pyarrow's version when Debian's python3 can import it (with pandas), else undefined. */
export function pyarrowVersion(): string | undefined {
  const r = spawnSync("/usr/bin/python3", ["-c", "import pyarrow, pandas; print(pyarrow.__version__)"], { encoding: "utf8", env: env() });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Settings passed on to pyarrow's write_table (through pandas' to_parquet), for tests that need small pages or row groups. */
export interface PyarrowWriteOptions {
  readonly row_group_size?: number;
  readonly data_page_size?: number;
  readonly dictionary_pagesize_limit?: number;
}

const SCRIPT = `
import json, sys
import numpy as np, pandas as pd
src, path, names, opts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
raw = np.fromfile(src, dtype="<f8")
n = len(raw) // (len(names) + 1)
ns = raw[:n].copy().view("<i8")
df = pd.DataFrame({name: raw[(k + 1) * n:(k + 2) * n] for k, name in enumerate(names)}, index=pd.DatetimeIndex(ns.view("datetime64[ns]"), name="time"))
df.to_parquet(path, **opts)
`;

/**
 * `df.to_parquet(path)` of a frame with a DatetimeIndex "time" (epoch ms
 * here, to the nearest ns, as the arrow-rs stand-in in foreignParquet.ts
 * writes them) and float64 `columns` (NaN is written as null, as pandas does).
 * @throws Error with python's message when pyarrow or pandas fails
 */
export function pyarrowParquet(time: Float64Array, columns: Record<string, Float64Array>, path: string, options: PyarrowWriteOptions = {}): void {
  const dir = mkdtempSync(join(tmpdir(), "milab-pyarrow-"));
  try {
    const names = Object.keys(columns);
    const n = time.length;
    const raw = new Float64Array(n * (names.length + 1));
    // Whole ms times in BigInt; a fraction of a ms (a float64's, e.g. 0.125) to the nearest ns: written as int64 bits.
    const ns = new BigInt64Array(raw.buffer, 0, n);
    for (let i = 0; i < n; i++) {
      const t = time[i] as number;
      ns[i] = BigInt(Math.floor(t)) * 1_000_000n + BigInt(Math.round((t - Math.floor(t)) * 1e6));
    }
    names.forEach((name, k) => raw.set(columns[name] as Float64Array, (k + 1) * n));
    const src = join(dir, "columns.f64");
    writeFileSync(src, new Uint8Array(raw.buffer));
    const r = spawnSync("/usr/bin/python3", ["-c", SCRIPT, src, path, JSON.stringify(names), JSON.stringify(options)], { encoding: "utf8", env: env() });
    if (r.status !== 0) throw new Error(`pyarrowParquet: python3 failed (${r.status}): ${r.stderr.slice(-2000)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
