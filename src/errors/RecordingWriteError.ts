import { MarketIntelError } from "./MarketIntelError.js";

/**
 * The recorder could not create, read or append to its recording folder
 * (read-only folder, disk full, permissions). `errno` is the system code
 * (`EROFS`, `ENOSPC`, `EACCES`, ...); the recorder stops (the lock is
 * released) and a partly written line is cut off by the next `record`.
 * @example
 * catch (e) { if (e instanceof RecordingWriteError && e.errno === "ENOSPC") console.log("disk full at", e.path); }
 */
export class RecordingWriteError extends MarketIntelError {
  /** File or folder concerned. */
  readonly path: string;
  /** System error code, e.g. `"ENOSPC"` ("UNKNOWN" when none). */
  readonly errno: string;

  constructor(operation: string, path: string, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code ?? "UNKNOWN";
    const hint =
      errno === "ENOSPC" || errno === "EDQUOT"
        ? "free disk space"
        : errno === "EROFS" || errno === "EACCES" || errno === "EPERM"
          ? "make the folder writable or choose another dir"
          : "check the folder";
    super(
      "RECORDING_WRITE_FAILED",
      `record: could not ${operation} ${path} (${errno}): ${hint}; the recorder stopped, restart it to resume without loss`,
      { cause },
    );
    this.path = path;
    this.errno = errno;
  }
}
