/**
 * Run `milab` inside this test process through `runCli` (src/cli/runCli.ts, what dist/cli/main.js calls), for the
 * tests that check only argument parsing, help text and the one-line message of refused input. A child process
 * (runMilab.ts) spends ~0.35-0.45 s of CPU (the bundled build; ~0.7-0.9 s before it) loading the CLI before it parses a flag; here they are loaded once per
 * worker. The built binary's own wiring (exit code from `process.exitCode`, EPIPE, signals) stays checked by child
 * processes in cli.test.ts and sweepSignals.test.ts. cli.test.ts also runs here the backtests whose JSON it compares
 * with a child's (the same options again, without the regime filter, at zero cost, the embedded seed-42 run).
 *
 * stdout and stderr are captured by replacing `process.stdout.write` / `process.stderr.write` for the call, so
 * calls are serialised (a queue), also under `describe.concurrent`. `MI_BASE_URL` and `MI_API_KEY` are unset for the
 * call as in a child (runMilab.ts), unless `env` sets them; `process.exitCode` is restored after it.
 */
import { runCli } from "../../../src/cli/runCli.js";
import type { MilabRun } from "./runMilab.js";

let queue: Promise<unknown> = Promise.resolve();

export function runMilabHere(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<MilabRun> {
  const run = queue.then(() => once(args, env));
  queue = run.catch(() => undefined);
  return run;
}

type Write = typeof process.stdout.write;

async function once(args: readonly string[], env: Record<string, string | undefined>): Promise<MilabRun> {
  const vars: Record<string, string | undefined> = { MI_BASE_URL: undefined, MI_API_KEY: undefined, ...env };
  const savedEnv = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const setEnv = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  let stdout = "";
  let stderr = "";
  const capture =
    (append: (s: string) => void): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (done !== undefined) queueMicrotask(done);
      return true;
    }) as Write;
  const out = process.stdout.write;
  const err = process.stderr.write;
  const exitCode = process.exitCode;
  setEnv(vars);
  process.stdout.write = capture((s) => (stdout += s));
  process.stderr.write = capture((s) => (stderr += s));
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = exitCode;
    setEnv(savedEnv);
  }
}
