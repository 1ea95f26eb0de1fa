#!/usr/bin/env node
/**
 * `npm run notebooks:setup`: write a Jupyter kernel spec for tslab (the
 * TypeScript kernel) into the project-local folder `.jupyter-kernel/`
 * (gitignored), using the absolute path of this checkout's
 * `node_modules/.bin/tslab`. Works from a fresh clone after `npm ci`; nothing
 * is installed system-wide and nothing is downloaded.
 *
 * Then open the notebooks with the kernel visible to Jupyter:
 *   JUPYTER_PATH=$PWD/.jupyter-kernel jupyter lab notebooks/
 * or execute one headless:
 *   JUPYTER_PATH=$PWD/.jupyter-kernel /usr/bin/jupyter nbconvert --to notebook --execute notebooks/01-quickstart.ipynb --output /tmp/out.ipynb
 *
 * Exported `setupKernel(root)` returns the JUPYTER_PATH folder; the notebook
 * test and `notebooks/run.mjs` call it so they never depend on a stale spec.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const KERNEL_NAME = "tslab";

/**
 * Write `<root>/.jupyter-kernel/kernels/tslab/kernel.json` and return `<root>/.jupyter-kernel`.
 * @param {string} root the checkout's root folder
 * @returns {string} the folder to put in JUPYTER_PATH
 */
export function setupKernel(root) {
  const tslab = join(root, "node_modules", ".bin", "tslab");
  if (!existsSync(tslab)) {
    throw new Error(`notebooks:setup: ${tslab} not found; run \`npm ci\` in ${root} first`);
  }
  const jupyterPath = join(root, ".jupyter-kernel");
  const kernelDir = join(jupyterPath, "kernels", KERNEL_NAME);
  mkdirSync(kernelDir, { recursive: true });
  const spec = {
    argv: [tslab, "kernel", "--config-path", "{connection_file}"],
    display_name: "TypeScript (tslab, market-intel-lab)",
    language: "typescript",
  };
  writeFileSync(join(kernelDir, "kernel.json"), JSON.stringify(spec, null, 2) + "\n");
  return jupyterPath;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const jupyterPath = setupKernel(root);
  console.log(`tslab kernel spec written to ${join(jupyterPath, "kernels", KERNEL_NAME, "kernel.json")}`);
  console.log(`Open the notebooks with:  JUPYTER_PATH=${jupyterPath} jupyter lab notebooks/`);
  console.log(`(build the library first: npm run build; notebooks import from "market-intel-lab", i.e. dist/)`);
}
