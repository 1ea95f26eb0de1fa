import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { StoreLockedError } from "../errors/StoreLockedError.js";
import { describeHolder, tryLockFile, type HeldLock } from "../load/lockFile.js";
import { BOOKED_FIELDS, type BookedBar } from "./PaperAccount.js";
import { ledgerNumber, readLedgerNumber } from "./ledgerNumber.js";

/** The ledger's first line: what it is the ledger of. A restart must match it. */
export interface LedgerHeader {
  readonly kind: "paper-ledger";
  readonly version: 1;
  /** The strategy, its parameters and backtest options (BoundStrategy.description). */
  readonly strategy: string;
  readonly coin: string;
  readonly intervalMs: number;
  /** Epoch ms of bar 0's open. */
  readonly start: number;
  readonly priceMetric: string;
  /** Metric ids the feed reads besides the price, in column order. */
  readonly metrics: readonly string[];
}

/** One booked bar: the bar the decision saw last, the engine's booking, and when it was booked. */
export interface LedgerRow extends BookedBar {
  /** Bar index, 0 = the ledger's first bar. */
  readonly bar: number;
  /** Epoch ms of the bar's open. */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** The feed's other metrics at the bar's close, by metric id. */
  readonly values: Readonly<Record<string, number>>;
  /** Units traded at this bar (holdings change) and the price they filled at (NaN when nothing traded). */
  readonly traded: number;
  readonly fillPrice: number;
  /** What the decision saw: bars 0..bar, and a digest chained over every value of them (seenDigest). */
  readonly seen: string;
  /** Wall-clock epoch ms when it was booked, and whether it was booked later than one interval after its close (a catch-up). */
  readonly bookedAt: number;
  readonly late: boolean;
}

/** A ledger event (an alarm or a notice): also emitted by the paper trader and printed by the CLI. */
export interface PaperEvent {
  /** stale (no new bar for staleAfterMs), resumed, gap (a bar without its close price), gapFilled (a missing close published later), feedError, conformance (the service's composite left the replay's: new weights named), performance (realised return outside the backtest's bootstrap band), reconcile (a difference from the backtest), restart. */
  readonly kind: "stale" | "resumed" | "gap" | "gapFilled" | "feedError" | "conformance" | "performance" | "reconcile" | "restart";
  /** Wall-clock epoch ms. */
  readonly at: number;
  /** The bar it concerns, when one. */
  readonly bar?: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

const LOCK_FILE = ".paper.lock";

/**
 * A paper ledger on disk: `<store>/paper=<name>/ledger.jsonl` (a header line, then one line per
 * booked bar) and `events.jsonl`, held by one process at a time (`.paper.lock`, the store's lock
 * rule: holder named, a dead holder's lock taken over, a live one refused). Each row is appended
 * as one write of one line and fsynced before the next bar is processed: a process killed at any
 * point leaves every row complete but at most a torn last line, which the next open cuts off
 * (that bar was not booked, and is booked again).
 */
export class PaperLedger {
  readonly dir: string;
  readonly rows: LedgerRow[] = [];
  readonly events: PaperEvent[] = [];
  private fd: number | undefined;
  private efd: number | undefined;
  private lock: HeldLock | undefined;
  /** Torn lines cut off at open. */
  readonly repaired: number;

  private constructor(dir: string, lock: HeldLock, header: LedgerHeader, where: string) {
    this.dir = dir;
    this.lock = lock;
    const path = join(dir, "ledger.jsonl");
    let repaired = 0;
    const lines = readLines(path, () => repaired++);
    if (lines.length === 0) {
      appendLine(path, JSON.stringify(header));
    } else {
      const found = JSON.parse(lines[0] as string) as LedgerHeader;
      if (JSON.stringify(found) !== JSON.stringify(header)) {
        lock.release();
        throw new InvalidArgumentError(
          "ledger",
          `${where}: the ledger ${path} is of another strategy or feed (its header ${JSON.stringify(found).slice(0, 300)} differs from ${JSON.stringify(header).slice(0, 300)}); give another name, or delete the folder to start over`,
        );
      }
      for (let k = 1; k < lines.length; k++) {
        const row = parseRow(lines[k] as string);
        if (row.bar !== k - 1) {
          lock.release();
          throw new InvalidArgumentError("ledger", `${where}: ledger ${path} line ${k + 1} books bar ${row.bar}, expected bar ${k - 1}: the file was edited; restore it or start a new ledger`);
        }
        this.rows.push(row);
      }
    }
    const epath = join(dir, "events.jsonl");
    for (const line of readLines(epath, () => repaired++)) this.events.push(JSON.parse(line) as PaperEvent);
    this.repaired = repaired;
    this.fd = openSync(path, "a");
    this.efd = openSync(epath, "a");
  }

  /**
   * Open (or create) the ledger `name` in the store folder `storeDir`, taking its lock.
   * @throws StoreLockedError when another live process holds it; InvalidArgumentError when the existing ledger is of another strategy
   */
  static open(storeDir: string, name: string, header: LedgerHeader, where: string): PaperLedger {
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new InvalidArgumentError("name", `${where}: name must be letters, digits, _ . or - (a folder name), got ${JSON.stringify(name)}`);
    const dir = join(storeDir, `paper=${name}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, LOCK_FILE);
    const attempt = tryLockFile(path, (operation, p, cause) => new InvalidArgumentError("store", `${where}: could not ${operation} the ledger lock ${p} (${(cause as NodeJS.ErrnoException).code ?? String(cause)}); make ${storeDir} writable`));
    if (!("taken" in attempt)) {
      const h = attempt.holder;
      throw new StoreLockedError(
        dir,
        h,
        `${where}: the paper ledger ${dir} is being traded by another process (${h === undefined ? "unknown, taking the lock right now" : describeHolder(h)}); stop it first, or use another name${h !== undefined && h.host !== hostname() ? `; if it is certainly stopped, delete ${path}` : ""}`,
      );
    }
    return new PaperLedger(dir, attempt.taken, header, where);
  }

  /** Append one booked row, durably (one write, then fsync). */
  append(row: LedgerRow): void {
    if (this.fd === undefined) throw new Error("PaperLedger: closed");
    if (row.bar !== this.rows.length) throw new Error(`PaperLedger: internal: booking bar ${row.bar} after ${this.rows.length} rows`);
    writeAll(this.fd, `${rowLine(row)}\n`);
    fsyncSync(this.fd);
    this.rows.push(row);
  }

  /** Append one event (durably). */
  event(e: PaperEvent): void {
    if (this.efd === undefined) return;
    writeAll(this.efd, `${JSON.stringify(e)}\n`);
    fsyncSync(this.efd);
    this.events.push(e);
  }

  /** Release the lock and close the files. Idempotent. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.efd !== undefined) closeSync(this.efd);
    this.fd = this.efd = undefined;
    this.lock?.release();
    this.lock = undefined;
  }
}

/** Read a ledger folder without taking its lock (status, reconciliation by another process). */
export function readLedger(dir: string): { header: LedgerHeader | undefined; rows: LedgerRow[]; events: PaperEvent[] } {
  const lines = readLines(join(dir, "ledger.jsonl"), () => undefined, false);
  const events = readLines(join(dir, "events.jsonl"), () => undefined, false).map((l) => JSON.parse(l) as PaperEvent);
  return { header: lines.length > 0 ? (JSON.parse(lines[0] as string) as LedgerHeader) : undefined, rows: lines.slice(1).map(parseRow), events };
}

/** The complete lines of a file (none if it does not exist); a torn last line is cut off (when `repair`) and counted. */
function readLines(path: string, torn: () => void, repair = true): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length) {
    torn();
    if (repair) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  }
  return text
    .slice(0, end)
    .split("\n")
    .filter((l) => l !== "");
}

function appendLine(path: string, line: string): void {
  const fd = openSync(path, "a");
  try {
    writeAll(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let at = 0;
  while (at < buf.length) at += writeSync(fd, buf, at, buf.length - at);
}

/** The number fields of a row, in line order. */
const NUMBER_FIELDS = ["time", "open", "high", "low", "close", ...BOOKED_FIELDS, "traded", "fillPrice"] as const;

function rowLine(r: LedgerRow): string {
  const o: Record<string, unknown> = { bar: r.bar };
  for (const f of NUMBER_FIELDS) o[f] = ledgerNumber(r[f]);
  o["values"] = Object.fromEntries(Object.entries(r.values).map(([k, v]) => [k, ledgerNumber(v)]));
  o["seen"] = r.seen;
  o["bookedAt"] = r.bookedAt;
  o["late"] = r.late;
  return JSON.stringify(o);
}

function parseRow(line: string): LedgerRow {
  const o = JSON.parse(line) as Record<string, unknown>;
  const row: Record<string, unknown> = { bar: o["bar"] };
  for (const f of NUMBER_FIELDS) row[f] = readLedgerNumber(o[f]);
  row["values"] = Object.fromEntries(Object.entries((o["values"] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, readLedgerNumber(v)]));
  row["seen"] = o["seen"];
  row["bookedAt"] = o["bookedAt"];
  row["late"] = o["late"];
  return row as unknown as LedgerRow;
}
