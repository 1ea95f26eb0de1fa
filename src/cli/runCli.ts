import { redactError } from "../api/transport/redactError.js";
import { Command, CommanderError } from "commander";
import { MarketIntelError } from "../errors/MarketIntelError.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { inCliTerms } from "./cliTerms.js";
import { optionHelp } from "./optionHelp.js";
import { suggestFlags } from "./suggestFlag.js";
import { backtestCommand } from "./commands/backtest.js";
import { demoCommand } from "./commands/demo.js";
import { notebookSetupCommand } from "./commands/notebookSetup.js";
import { exportCommand } from "./commands/export.js";
import { recordCommand } from "./commands/record.js";
import { reportCommand } from "./commands/report.js";
import { seedsCommand } from "./commands/seeds.js";
import { serveCommand } from "./commands/serve.js";
import { sweepCommand } from "./commands/sweep.js";
import { paperCommand } from "./commands/paper.js";

/** Exit codes of `milab`: 0 success, 1 failure while running, 2 bad usage or bad argument, 130 stopped by Ctrl-C (partial results written). */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** Build the `milab` program with every command registered. */
export function createProgram(): Command {
  const program = new Command("milab")
    .description("market-intel-lab: research tools for the Market Intelligence crypto API (replay server, backtests, tearsheets)")
    .version("0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ outputError: (text, write) => write(text) });
  program.addCommand(demoCommand());
  program.addCommand(serveCommand());
  program.addCommand(backtestCommand());
  program.addCommand(reportCommand());
  program.addCommand(seedsCommand());
  program.addCommand(recordCommand());
  program.addCommand(sweepCommand());
  program.addCommand(exportCommand());
  program.addCommand(paperCommand());
  program.addCommand(notebookSetupCommand());
  for (const cmd of [program, ...program.commands]) cmd.showHelpAfterError("(run with --help for usage)").configureHelp({ optionDescription: optionHelp });
  suggestFlags([program, ...program.commands]);
  return program;
}

/**
 * Run `milab` with the given arguments (without `node` and the script) and
 * return the exit code. User errors print one line, never a stack trace;
 * unexpected errors print their stack when `MILAB_DEBUG` is set.
 */
export async function runCli(args: readonly string[]): Promise<number> {
  const program = createProgram();
  program.exitOverride();
  for (const cmd of program.commands) cmd.exitOverride();
  // the flags of the command that runs: library messages are put in their terms (inCliTerms)
  let flags: string[] = [];
  program.hook("preAction", (_program, command) => {
    flags = command.options.flatMap((o) => (o.long !== undefined ? [o.long] : []));
  });
  try {
    await program.parseAsync([...args], { from: "user" });
    // a command that stopped early on Ctrl-C (and wrote what it had) says so in the exit code
    return process.exitCode === EXIT.interrupted ? EXIT.interrupted : EXIT.ok;
  } catch (caught) {
    // The CLI's error boundary: the key it was given never reaches the terminal, whatever threw.
    const err = redactError(caught, [process.env["MI_API_KEY"] ?? ""].filter((k) => k !== ""));
    if (err instanceof CommanderError) {
      // commander has already printed the message (or the help / version).
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof InvalidArgumentError) {
      process.stderr.write(`milab: ${inCliTerms(err.message, flags)}\n`);
      return EXIT.usage;
    }
    if (err instanceof MarketIntelError) {
      process.stderr.write(`milab: ${inCliTerms(err.message, flags)}\n`);
      return EXIT.failure;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`milab: unexpected error: ${message}\n`);
    if (process.env["MILAB_DEBUG"] !== undefined && err instanceof Error && err.stack !== undefined) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write("(set MILAB_DEBUG=1 for the stack trace)\n");
    return EXIT.failure;
  }
}
