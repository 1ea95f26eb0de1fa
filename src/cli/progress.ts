import type cliProgressTypes from "cli-progress";
import { createRequire } from "node:module";

/** A progress display for one long step; a no-op off a terminal. */
export interface Progress {
  /** Set the total and the current count. */
  update(done: number, total?: number): void;
  /** A new step label (and total). */
  step(label: string, total: number): void;
  stop(): void;
}

/**
 * A cli-progress bar on stderr, shown only when stderr is a TTY (so piped or
 * captured output, tests and CI logs stay clean) and `quiet` is false.
 */
export function createProgress(quiet = false): Progress {
  if (quiet || process.stderr.isTTY !== true) {
    return { update: () => undefined, step: () => undefined, stop: () => undefined };
  }
  // loaded only when a bar is shown (stderr a terminal): a piped or captured `milab` never loads cli-progress
  const cliProgress = createRequire(import.meta.url)("cli-progress") as typeof cliProgressTypes;
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: "{label} [{bar}] {value}/{total}", barsize: 30, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) return;
      if (total !== undefined) bar.setTotal(total);
      bar.update(done);
    },
    step(label, total) {
      if (!started) {
        bar.start(total, 0, { label: label.padEnd(22) });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(0, { label: label.padEnd(22) });
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
