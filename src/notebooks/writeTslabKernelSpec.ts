import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The kernel's name in Jupyter (`kernel_name="tslab"`, the notebooks' kernelspec). */
export const TSLAB_KERNEL_NAME = "tslab";

/**
 * Write a Jupyter kernel spec for tslab (the TypeScript kernel) into
 * `<folder>/.jupyter-kernel/kernels/tslab/kernel.json`, pointing at the
 * absolute path of `<folder>/node_modules/.bin/tslab`, and return
 * `<folder>/.jupyter-kernel`, the folder to put in `JUPYTER_PATH`. Nothing is
 * installed system-wide and nothing is downloaded. The one rule for the spec:
 * `npm run notebooks:setup` (this checkout) and `milab notebook-setup` (a
 * project that installed the package) both call it.
 * @example
 * writeTslabKernelSpec(process.cwd()) // "/home/me/research/.jupyter-kernel"
 */
export function writeTslabKernelSpec(folder: string): string {
  const root = resolve(folder);
  const tslab = join(root, "node_modules", ".bin", "tslab");
  if (!existsSync(tslab)) {
    throw new InvalidArgumentError(
      "folder",
      `writeTslabKernelSpec: ${tslab} not found; install the kernel in ${root} first: npm install --save-dev tslab`,
    );
  }
  const jupyterPath = join(root, ".jupyter-kernel");
  const kernelDir = join(jupyterPath, "kernels", TSLAB_KERNEL_NAME);
  mkdirSync(kernelDir, { recursive: true });
  const spec = {
    argv: [tslab, "kernel", "--config-path", "{connection_file}"],
    display_name: "TypeScript (tslab, market-intel-lab)",
    language: "typescript",
  };
  writeFileSync(join(kernelDir, "kernel.json"), JSON.stringify(spec, null, 2) + "\n");
  return jupyterPath;
}
