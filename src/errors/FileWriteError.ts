import { MarketIntelError } from "./MarketIntelError.js";

/** What to do about a system error code when writing a file. */
function hintOf(errno: string): string {
  switch (errno) {
    case "EISDIR":
      return "it is a folder: give a file path";
    case "ENOTDIR":
      return "a part of the path is a file, not a folder: choose another path";
    case "ENOSPC":
    case "EDQUOT":
      return "the disk is full: free space or choose another disk";
    case "EROFS":
      return "the file system is read-only: choose a writable folder";
    case "EACCES":
    case "EPERM":
      return "permission denied: make the folder writable or choose another one";
    case "ENAMETOOLONG":
      return "the file name is too long: choose a shorter name";
    case "EMFILE":
    case "ENFILE":
      return "too many open files: close some or raise the limit";
    default:
      return "check the path and the disk";
  }
}

/**
 * A file could not be written (a folder where a file was asked, disk full,
 * read-only file system, permissions, a name too long). `errno` is the system
 * code (`EISDIR`, `ENOSPC`, `EROFS`, `EACCES`, ...); the message names the
 * function, the path, the code and what to do. The old file, if any, is
 * left as it was (writes are atomic).
 * @example
 * catch (e) { if (e instanceof FileWriteError && e.errno === "ENOSPC") console.log("disk full at", e.path); }
 */
export class FileWriteError extends MarketIntelError {
  /** The file that could not be written. */
  readonly path: string;
  /** System error code, e.g. `"ENOSPC"` ("UNKNOWN" when none). */
  readonly errno: string;

  constructor(where: string, path: string, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code ?? "UNKNOWN";
    super("FILE_WRITE_FAILED", `${where}: could not write ${path} (${errno}): ${hintOf(errno)}`, { cause });
    this.path = path;
    this.errno = errno;
  }
}
