#!/usr/bin/env node
/** The `milab` command line: see `milab --help`. */
import { runCli } from "./runCli.js";

// A reader that stops early (`milab backtest --json | head`) closes the pipe:
// that is the reader's choice, not a failure, so end quietly instead of
// crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await runCli(process.argv.slice(2));
