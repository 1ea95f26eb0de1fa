import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Check, before any work starts, that an output can be written where the user
 * asked: a file output must not be an existing folder, a folder output must
 * not be an existing file, and the nearest existing ancestor must be a
 * writable folder (missing folders are created later by the writer). Creates
 * nothing. Throws InvalidArgumentError naming the option, the path and the fix
 * (the CLI prints it in flag terms, exit 2).
 * @example
 * checkOutputPath("out", { option: "out", kind: "file", example: "out/report.html" }) // throws if out/ is a folder
 */
export function checkOutputPath(path: string, how: { readonly option: string; readonly kind: "file" | "folder"; readonly example: string }): void {
  const full = resolve(path);
  const { option, kind, example } = how;
  if (existsSync(full)) {
    const isDir = statSync(full).isDirectory();
    if (kind === "file" && isDir) throw new InvalidArgumentError(option, `output: ${option} must be a file, got the folder ${path} (e.g. ${example})`);
    if (kind === "folder" && !isDir) throw new InvalidArgumentError(option, `output: ${option} must be a folder, got the file ${path} (e.g. ${example})`);
    assertWritable(full, option, path);
    return;
  }
  let parent = dirname(full);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) throw new InvalidArgumentError(option, `output: ${option} cannot be written: ${parent} is a file, not a folder, got ${path} (e.g. ${example})`);
  assertWritable(parent, option, path);
}

function assertWritable(at: string, option: string, path: string): void {
  try {
    accessSync(at, constants.W_OK);
  } catch {
    throw new InvalidArgumentError(option, `output: ${option} cannot be written: no write permission on ${at}, got ${path}`);
  }
}
