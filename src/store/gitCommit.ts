import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit checked out in the git work tree holding `from` (a folder),
 * read from `.git` without running git: HEAD, then the branch's loose ref or
 * `packed-refs` (worktrees and submodules, whose `.git` is a file naming the
 * real git folder, included). Undefined outside a work tree (an installed
 * package) or when anything is unreadable.
 * @example gitCommit(process.cwd()) // "e2955cd4..." (40 hex digits) or undefined
 * @internal
 */
export function gitCommit(from: string): string | undefined {
  let dir = from;
  for (;;) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      let gitDir = dotGit;
      if (statSync(dotGit).isFile()) {
        const m = /^gitdir:\s*(.+)$/m.exec(read(dotGit) ?? "");
        if (m === null) return undefined;
        gitDir = isAbsolute(m[1] as string) ? (m[1] as string) : join(dir, m[1] as string);
      }
      const commonRel = read(join(gitDir, "commondir"));
      const common = commonRel === undefined ? gitDir : isAbsolute(commonRel) ? commonRel : join(gitDir, commonRel);
      const head = read(join(gitDir, "HEAD"));
      if (head === undefined) return undefined;
      if (/^[0-9a-f]{40}$/.test(head)) return head;
      const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
      if (ref === undefined) return undefined;
      const loose = read(join(gitDir, ref)) ?? read(join(common, ref));
      if (loose !== undefined && /^[0-9a-f]{40}$/.test(loose)) return loose;
      const packed = read(join(common, "packed-refs")) ?? "";
      for (const line of packed.split("\n")) {
        const [sha, name] = line.split(" ");
        if (name === ref && sha !== undefined && /^[0-9a-f]{40}$/.test(sha)) return sha;
      }
      return undefined;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
