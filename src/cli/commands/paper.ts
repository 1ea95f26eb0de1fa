import { resolve } from "node:path";
import { Command } from "commander";
import { createClient } from "../../api/createClient.js";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import { paperTrade } from "../../paper/paperTrade.js";
import { readLedger } from "../../paper/PaperLedger.js";
import { servePaperPage, type PaperPage } from "../../paper/servePaperPage.js";
import type { PaperStrategy } from "../../paper/paperStrategy.js";
import type { SweepValue } from "../../research/SweepResult.js";
import { addEngineFlags, engineOptions } from "../engineFlags.js";
import { loadStrategyModule } from "../loadStrategyModule.js";
import { integerOption, timeOption } from "../options.js";
import { parseParams, STRATEGY_FLAG_HELP } from "../runStrategyJob.js";

/** Options of `milab paper`, as parsed. */
interface PaperCliOptions {
  readonly strategy?: string;
  readonly store?: string;
  readonly coin: string;
  readonly name?: string;
  readonly baseUrl?: string;
  readonly intervalMs: number;
  readonly start?: number;
  readonly bars?: number;
  readonly params?: Record<string, SweepValue>;
  readonly funding: boolean;
  readonly pollMs?: number;
  readonly serve?: number | true;
  readonly staleAfterMs?: number;
  readonly rateLimit: number;
}

/**
 * `milab paper`: paper-trade a strategy module (or the built-in composite) on the live API,
 * one status line per booked bar and one line per alarm; `milab paper status --store` prints
 * the ledgers of a store.
 */
export function paperCommand(): Command {
  const cmd = new Command("paper")
    .description("paper-trade a strategy bar by bar on the live API, booked by the backtest engine into a ledger in the store")
    .option("--strategy <file>", STRATEGY_FLAG_HELP)
    .option("--store <dir>", "store folder that keeps the ledger (paper=<name>/); required")
    .option("--coin <coin>", "coin traded", "BTC")
    .option("--name <name>", "ledger name [<coin>-<minutes>m]")
    .option("--base-url <url>", "API root [env MI_BASE_URL]")
    .option("--rate-limit <n>", "requests per minute this client allows itself (each poll asks once per metric: the price, funding, a composite's components)", integerOption("rate-limit", 1, 1_000_000), 60)
    .option("--interval-ms <ms>", "bar length in ms (a whole number of minutes)", integerOption("interval-ms", 60_000, 86_400_000), 60_000)
    .option("--start <time>", "first bar's open: ISO date/time (UTC) or epoch ms [the latest closed bar]", timeOption("start"))
    .option("--bars <n>", "stop once the ledger holds n bars", integerOption("bars", 1, 1e9))
    .option("--params <json>", 'strategy parameters as JSON, e.g. {"n":12} [the module\'s exported params]', parseParams)
    .option("--no-funding", "do not charge perpetual funding (charged by default, as in milab backtest and sweep)")
    .option("--poll-ms <ms>", "wait between polls", integerOption("poll-ms", 0, 3_600_000))
    .option("--stale-after-ms <ms>", "raise a stale alarm after this long without a new bar [3 intervals]", integerOption("stale-after-ms", 0, 86_400_000))
    .option("--serve [port]", "also serve a live page on 127.0.0.1 (equity, position, alarms by server-sent events; offline); port 0 or none: any free port", integerOption("serve", 0, 65_535))
    .action(async (o: PaperCliOptions) => {
      if (o.store === undefined) throw new InvalidArgumentError("store", "milab paper: --store <dir> is required (the folder that keeps the ledger)");
      const mod = o.strategy !== undefined ? await loadStrategyModule(o.strategy, false) : undefined;
      const strategy: PaperStrategy = mod?.strategy ?? { kind: "composite" };
      const params = { ...(mod?.params ?? {}), ...(o.params ?? {}) };
      const client = createClient({ ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}), cacheTtlMs: 0, rateLimitPerMinute: o.rateLimit });
      const controller = new AbortController();
      const stop = (): void => controller.abort();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      const paper = await paperTrade(strategy, {
        coin: o.coin,
        client,
        store: o.store,
        intervalMs: o.intervalMs,
        signal: controller.signal,
        chargeFunding: o.funding,
        ...(o.name !== undefined ? { name: o.name } : {}),
        ...(o.start !== undefined ? { start: o.start } : {}),
        ...(o.bars !== undefined ? { bars: o.bars } : {}),
        ...(Object.keys(params).length > 0 ? { params } : {}),
        ...engineOptions(o as unknown as Record<string, unknown>),
        ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
        ...(o.staleAfterMs !== undefined ? { staleAfterMs: o.staleAfterMs } : {}),
      });
      paper.subscribe((e) => process.stderr.write(`milab paper: ${e.kind}: ${e.message}\n`));
      let page: PaperPage | undefined;
      if (o.serve !== undefined) {
        page = await servePaperPage(paper, { port: o.serve === true ? 0 : o.serve });
        process.stdout.write(`live page on ${page.url} (equity, position, alarms)\n`);
      }
      const r = paper.atStart;
      process.stdout.write(`reconciled at start: ${r.equal ? "equal" : `differs at bar ${r.first?.bar} (${r.first?.field})`} over ${r.bars} bars\n`);
      let shown = paper.rows.length;
      const timer = setInterval(() => {
        if (paper.rows.length !== shown) {
          shown = paper.rows.length;
          process.stdout.write(`${paper.status()}\n`);
        }
      }, 250);
      try {
        await paper.run();
      } finally {
        clearInterval(timer);
        process.stdout.write(`${paper.status()}\n`);
        await page?.close();
        paper.close();
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
    });
  // the backtest options as flags, from the one flag table (--fee-bps, --stop-loss, --fill, ...)
  addEngineFlags(cmd);
  cmd
    .command("status")
    .description("print each paper ledger of a store: bars, position, equity, last alarm")
    .option("--store <dir>", "store folder; required")
    .action(async (_o: unknown, command: Command) => {
      const store = (command.optsWithGlobals() as { store?: string }).store;
      if (store === undefined) throw new InvalidArgumentError("store", "milab paper status: --store <dir> is required (the store folder whose ledgers to show)");
      const o = { store };
      const { readdirSync } = await import("node:fs");
      const dirs = readdirSync(o.store).filter((d) => d.startsWith("paper="));
      if (dirs.length === 0) process.stdout.write(`no paper ledgers in ${o.store}\n`);
      for (const d of dirs.sort()) {
        const { rows, events } = readLedger(resolve(o.store, d));
        const last = rows[rows.length - 1];
        const alarm = [...events].reverse().find((e) => e.kind !== "restart");
        process.stdout.write(
          `${d.slice(6)}: ${rows.length} bars${last !== undefined ? ` to ${new Date(last.time).toISOString()} | position ${last.exposure.toFixed(3)} | equity ${last.equity.toFixed(2)}` : ""} | last alarm ${alarm === undefined ? "none" : `${alarm.kind}: ${alarm.message}`}\n`,
        );
      }
    });
  return cmd;
}
