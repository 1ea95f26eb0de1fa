/**
 * True when a process with this id runs on this machine: `kill(pid, 0)`
 * succeeds, or fails with EPERM (it runs under another user). The one rule
 * by which the store and the recorder decide that a lock, a pinned query
 * snapshot or a file renamed aside by a compaction was left by a process
 * that is gone. A pid can be reused, so `true` never proves the original
 * owner is alive; callers treat it as "maybe alive" and keep its files.
 * @example
 * isProcessAlive(process.pid); // true
 * @internal
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
