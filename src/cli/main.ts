#!/usr/bin/env node
/** The `milab` command line: see `milab --help`. */
import { runCli } from "./runCli.js";

process.exitCode = await runCli(process.argv.slice(2));
