import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { MarketIntelClient } from "../api/createClient.js";
import { ENDPOINTS, type EndpointName } from "../api/endpoints.js";
import { redactJson, secretsOf } from "../api/transport/clientSecrets.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { refuseRenamedOptions } from "../errors/refuseRenamedOptions.js";
import { MarketIntelError } from "../errors/MarketIntelError.js";
import { InvalidTimeError } from "../errors/InvalidTimeError.js";
import { RecorderLockedError } from "../errors/RecorderLockedError.js";
import { RecordingWriteError } from "../errors/RecordingWriteError.js";
import { appendRecordingLine } from "./appendRecordingLine.js";
import { lockRecording } from "./recordingLock.js";
import { RECORD_ENDPOINTS } from "./loadSignalRecords.js";
import { formatRecordingLine, lineKey, recordingKey, recordingPath } from "./recordingLine.js";

/** Endpoints the recorder can poll: every one except the two query endpoints (history, analytics). */
export const RECORDABLE_ENDPOINTS = [
  "snapshot",
  "volatility",
  "whaleFlow",
  "composite",
  "regime",
  ...RECORD_ENDPOINTS,
] as const satisfies readonly EndpointName[];

/** One of {@link RECORDABLE_ENDPOINTS}. */
export type RecordableEndpoint = (typeof RECORDABLE_ENDPOINTS)[number];

/** A line of the recorder's log. */
export interface RecordLog {
  readonly level: "info" | "warn" | "error";
  /** `start`, `stale-lock`, `repair`, `write`, `unchanged`, `error` (a failed request), `disk-error`, `lock-lost`, `stop`. */
  readonly event: string;
  readonly endpoint?: string;
  /** Dedupe key of the response concerned (its own time stamp, ISO). */
  readonly key?: string;
  readonly message: string;
}

/** Options of {@link record}. */
export interface RecordOptions {
  /** Directory of the recording (created if missing); one subfolder per endpoint, one JSON-lines file per UTC day. */
  readonly dir: string;
  /** Endpoints to poll [composite, volatility, regime, snapshot]. */
  readonly endpoints?: readonly RecordableEndpoint[];
  /** Milliseconds between polls [60 000]. (`everySeconds` before 0.2.) The client's response cache (the service's max-age, 45 s) means a faster poll gets the cached body, which is skipped, never a new request. */
  readonly everyMs?: number;
  /** Stop after this many polls (each poll asks every endpoint once) [unlimited]. */
  readonly maxPolls?: number;
  /** Ends the recorder (after the write in progress) when aborted. */
  readonly signal?: AbortSignal;
  /** Receives each log line [none]. */
  readonly onLog?: (log: RecordLog) => void;
  /** fsync each append (survives power loss, not just a killed process) [false]. */
  readonly fsync?: boolean;
  /** "Now", epoch ms: decides which responses are late (older than yesterday: appended to a late file, see recordingPath) [Date.now]. Give the replay server's clock when recording it. */
  readonly clock?: () => number;
}

/** What a recorder did. */
export interface RecordStats {
  readonly polls: number;
  /** Responses appended. */
  readonly written: number;
  /** Responses skipped because the recording already had them (same endpoint and time stamp). */
  readonly unchanged: number;
  /** Failed requests (logged; the recorder carries on). */
  readonly errors: number;
  /** Torn last lines cut off on start (left by a killed recorder). */
  readonly repaired: number;
}

/** A running recorder. */
export interface Recorder {
  /** Settles when the recorder ends (maxPolls reached, stop() or the signal). */
  readonly done: Promise<RecordStats>;
  /** End the recorder after the write in progress; resolves with its stats. */
  stop(): Promise<RecordStats>;
}

function check(options: RecordOptions): { endpoints: RecordableEndpoint[]; everyMs: number; maxPolls: number } {
  if (typeof options !== "object" || options === null || typeof options.dir !== "string" || options.dir.trim() === "") {
    throw new InvalidArgumentError("dir", 'record: dir must be a non-empty path, e.g. record(client, { dir: "recordings/mi" })');
  }
  const endpoints = [...(options.endpoints ?? ["composite", "volatility", "regime", "snapshot"])];
  const bad = endpoints.filter((e) => !(RECORDABLE_ENDPOINTS as readonly string[]).includes(e));
  if (endpoints.length === 0 || bad.length > 0) {
    throw new InvalidArgumentError("endpoints", `record: endpoints must be a non-empty list of ${RECORDABLE_ENDPOINTS.join(", ")}, got ${JSON.stringify(options.endpoints)}`);
  }
  refuseRenamedOptions(options, "record", { everySeconds: "everyMs, in milliseconds (everySeconds: 60 -> everyMs: 60_000)" });
  const everyMs = options.everyMs ?? 60_000;
  if (typeof everyMs !== "number" || !Number.isFinite(everyMs) || everyMs < 10) {
    throw new InvalidArgumentError("everyMs", `record: everyMs must be a number of milliseconds >= 10, got ${String(everyMs)}`);
  }
  const maxPolls = options.maxPolls ?? Infinity;
  if (maxPolls !== Infinity && (!Number.isInteger(maxPolls) || maxPolls < 1)) {
    throw new InvalidArgumentError("maxPolls", `record: maxPolls must be a positive integer, got ${String(maxPolls)}`);
  }
  if (options.clock !== undefined && typeof options.clock !== "function") {
    throw new InvalidArgumentError("clock", "record: clock must be a function returning epoch ms, e.g. () => Date.now()");
  }
  return { endpoints: [...new Set(endpoints)], everyMs, maxPolls };
}

/** Cut a torn last line (no newline) off each file; collect the keys already recorded. */
function resume(dir: string, endpoint: string, keys: Set<string>, log: (l: RecordLog) => void): number {
  const sub = join(dir, endpoint);
  let names: string[];
  try {
    mkdirSync(sub, { recursive: true });
    names = readdirSync(sub);
  } catch (err) {
    throw new RecordingWriteError("create", sub, err);
  }
  let repaired = 0;
  for (const name of names.filter((f) => f.endsWith(".jsonl")).sort()) {
    const path = join(sub, name);
    // Read and cut through one descriptor: a compaction may rename the file meanwhile (the cut then still applies
    // to the file read, and only past its last newline, which no reader counts as a line).
    let fd: number;
    try {
      fd = openSync(path, "r+");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // claimed by a compaction since the listing
      throw new RecordingWriteError("read", path, err);
    }
    let text: string;
    let end: number;
    try {
      try {
        text = readFileSync(fd, "utf8");
      } catch (err) {
        throw new RecordingWriteError("read", path, err);
      }
      end = text.lastIndexOf("\n") + 1;
      if (end < text.length) {
        try {
          ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
        } catch (err) {
          throw new RecordingWriteError("repair", path, err);
        }
      }
    } finally {
      closeSync(fd);
    }
    if (end < text.length) {
      repaired++;
      log({ level: "warn", event: "repair", endpoint, message: `cut a torn last line (${text.length - end} chars) off ${path}` });
    }
    for (const line of text.slice(0, end).split("\n")) {
      const key = line === "" ? undefined : lineKey(line);
      if (key !== undefined) keys.add(`${endpoint}|${key}`);
    }
  }
  return repaired;
}

/**
 * Record the API: poll `endpoints` every `everyMs` and append each new
 * response, exactly as the service sent it, as one JSON line to
 * `<dir>/<endpoint>/<YYYY-MM-DD>.jsonl` (the UTC day of the response's own
 * time stamp; a response older than yesterday goes to
 * `<YYYY-MM-DD>.late-<today>.jsonl`, so compaction never removes a file still
 * appended to). A response whose endpoint and time stamp are already in the
 * recording is skipped (so restarts and cached responses never duplicate).
 * Crash safety: each line is written with one `write` call of the whole
 * line, and acknowledged (the `write` log) only once it is in a file that
 * compaction will read (see appendRecordingLine); a recorder killed mid-write leaves at most a torn last line without
 * its newline, which `loadRecording` ignores and the next `record` on the
 * directory cuts off before resuming. One recorder per directory: `.lock`,
 * taken atomically (see RecorderLockedError; a lock whose process is gone on
 * this host is taken over). Request failures are logged and the recorder
 * carries on; a disk error (read-only folder, disk full) or a lost lock is
 * logged and stops it at once, `done` rejecting with the typed error.
 * Nothing secret is stored: every string of a body (field names too) has
 * the client's key and URL credentials replaced by `REDACTED` before it is
 * written. Load the result with `loadRecording(dir)`.
 * @throws InvalidArgumentError for bad options
 * @throws RecorderLockedError when another live recorder holds the directory
 * @throws RecordingWriteError when the directory cannot be created or read
 * @example
 * const rec = record(client, { dir: "rec", endpoints: ["composite"], everyMs: 60_000, onLog: (l) => console.error(l.message) });
 * // ... later
 * await rec.stop(); // { polls, written, unchanged, errors, repaired }
 */
export function record(client: MarketIntelClient, options: RecordOptions): Recorder {
  const { endpoints, everyMs, maxPolls } = check(options);
  const dir = options.dir;
  const log = (l: RecordLog): void => {
    try {
      options.onLog?.(l);
    } catch {
      // a logging hook must never stop the recorder
    }
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new RecordingWriteError("create", dir, err);
  }
  const lock = lockRecording(dir, (h) =>
    log({ level: "warn", event: "stale-lock", message: `took over a stale lock of ${dir} (pid ${h.pid} on ${h.host} is not running)` }),
  );
  const secrets = secretsOf(client);
  const keys = new Set<string>();
  let repaired = 0;
  try {
    for (const e of endpoints) repaired += resume(dir, e, keys, log);
  } catch (err) {
    lock.release();
    throw err;
  }
  log({ level: "info", event: "start", message: `recording ${endpoints.join(", ")} every ${everyMs / 1000} s into ${dir} (${keys.size} responses already there)` });

  let stopped = false;
  let wake: (() => void) | undefined;
  const stopNow = (): void => {
    stopped = true;
    wake?.();
  };
  if (options.signal?.aborted === true) stopped = true;
  options.signal?.addEventListener("abort", stopNow, { once: true });
  const stats = { polls: 0, written: 0, unchanged: 0, errors: 0, repaired };
  /** The error that stopped the recorder (disk or lock); no write happens after it. */
  let fatal: MarketIntelError | undefined;
  const fail = (err: MarketIntelError, event: string, endpoint: string): void => {
    if (fatal !== undefined) return;
    fatal = err;
    log({ level: "error", event, endpoint, message: err.message });
    stopNow();
  };

  const pollOne = async (endpoint: RecordableEndpoint): Promise<void> => {
    if (fatal !== undefined) return;
    let body: unknown;
    try {
      body = redactJson(await client.raw(ENDPOINTS[endpoint]), secrets);
    } catch (err) {
      stats.errors++;
      log({ level: "error", event: "error", endpoint, message: `${endpoint}: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    const fetchedAt = Date.now();
    let stamp: { key: string; time: number };
    try {
      stamp = recordingKey(body, fetchedAt);
    } catch (err) {
      // A response stamped outside the API's time range (1e20, -1, year 3000) is refused by the
      // time rule: counted and logged like a failed request, never written, and polling goes on.
      if (!(err instanceof InvalidTimeError)) throw err;
      stats.errors++;
      log({ level: "error", event: "error", endpoint, message: `${endpoint}: ${err.message}` });
      return;
    }
    const { key, time } = stamp;
    if (keys.has(`${endpoint}|${key}`)) {
      stats.unchanged++;
      log({ level: "info", event: "unchanged", endpoint, key, message: `${endpoint} ${key}: already recorded` });
      return;
    }
    const path = recordingPath(dir, endpoint, time, (options.clock ?? Date.now)());
    if (fatal !== undefined) return;
    if (!lock.held()) {
      fail(new RecorderLockedError(dir, lock.holder, `record: the recorder of ${dir} lost its lock (${join(dir, ".lock")} was removed or taken by another recorder); it stopped without writing further`), "lock-lost", endpoint);
      return;
    }
    try {
      appendRecordingLine(path, formatRecordingLine({ endpoint, key, time, fetchedAt, body }), { fsync: options.fsync === true });
    } catch (err) {
      if (!(err instanceof RecordingWriteError)) throw err;
      fail(err, "disk-error", endpoint);
      return;
    }
    keys.add(`${endpoint}|${key}`);
    stats.written++;
    log({ level: "info", event: "write", endpoint, key, message: `${endpoint} ${key}: appended to ${path}` });
  };

  const run = async (): Promise<RecordStats> => {
    const t0 = Date.now();
    try {
      while (!stopped && stats.polls < maxPolls) {
        stats.polls++;
        await Promise.all(endpoints.map(pollOne));
        if (stopped || stats.polls >= maxPolls) break;
        const next = t0 + Math.ceil((Date.now() - t0 + 1) / everyMs) * everyMs;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, next - Date.now()));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      options.signal?.removeEventListener("abort", stopNow);
      lock.release();
    }
    if (fatal !== undefined) throw fatal;
    const result = { ...stats };
    log({ level: "info", event: "stop", message: `stopped after ${result.polls} polls: ${result.written} written, ${result.unchanged} unchanged, ${result.errors} errors` });
    return result;
  };
  const done = run();
  return {
    done,
    stop: () => {
      stopNow();
      return done;
    },
  };
}
