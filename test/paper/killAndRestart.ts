import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readLedger, type LedgerRow } from "../../src/index.js";
import { createRng } from "../../src/random/prng.js";
import { bundleChild } from "../support/bundleChild.js";

const CHILD = join(import.meta.dirname, "paperChild.ts");

function lineCount(path: string): number {
  try {
    return readFileSync(path, "utf8").split("\n").length - 1;
  } catch {
    return 0;
  }
}

const exited = (c: ChildProcess): Promise<number | null> => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once("exit", (code) => r(code))));

/**
 * Run a paper case in a child process (paperChild.ts), kill -9 it `kills` times, each at a random
 * moment (seeded) within `windowMs` after it booked its first bar, restart it each time, and let
 * the last one finish. Returns the ledger, the last child's exit code and every child's stderr.
 */
export async function killAndRestart(url: string, store: string, name: string, bars: number, kills: number, seed: number, windowMs = 400): Promise<{ rows: LedgerRow[]; code: number | null; stderr: string }> {
  const rng = createRng(seed);
  const ledgerPath = join(store, `paper=${name}`, "ledger.jsonl");
  let stderr = "";
  let code: number | null = null;
  for (let k = 0; k <= kills; k++) {
    const child = spawn(process.execPath, [bundleChild(CHILD), url, store, name, String(bars)], { stdio: ["ignore", "ignore", "pipe"] });
    // a child is never left running when the caller gives up (a test timeout, an error)
    const orphan = (): void => void child.kill("SIGKILL");
    process.once("exit", orphan);
    child.once("exit", () => process.off("exit", orphan));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    if (k < kills) {
      const before = lineCount(ledgerPath);
      while (lineCount(ledgerPath) <= Math.max(1, before) && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, Math.floor(rng.uniform() * windowMs)));
      child.kill("SIGKILL");
      await exited(child);
    } else code = await exited(child);
  }
  return { rows: readLedger(join(store, `paper=${name}`)).rows, code, stderr };
}
