import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Check, before any work starts, that `path` can be written as a file: not an existing folder,
 * and its nearest existing parent a folder this process may write in (missing folders are
 * created at the write). So `milab report --out <a folder>` fails in a moment with the fix,
 * not after the whole study with EISDIR.
 * @param flag the option that gave the path, for the message (e.g. "--out")
 * @throws InvalidArgumentError (exit 2) naming the flag, the path and the fix
 */
export function checkOutputFile(path: string, flag: string): void {
  const file = resolve(path);
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new InvalidArgumentError(flag, `${flag} ${path} is a folder; give a file path, e.g. ${flag} ${path.replace(/\/+$/, "")}/report.html`);
  }
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) {
    throw new InvalidArgumentError(flag, `${flag} ${path} cannot be written: ${dir} is a file, not a folder`);
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new InvalidArgumentError(flag, `${flag} ${path} cannot be written: no permission to write in ${dir}`);
  }
}
