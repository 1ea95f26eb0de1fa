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
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const KERNEL_NAME = "tslab";

/**
 * Write `<root>/.jupyter-kernel/kernels/tslab/kernel.json` and return `<root>/.jupyter-kernel`,
 * by the library's one rule (`writeTslabKernelSpec`, also behind `milab notebook-setup`).
 * Needs the build (dist/): `npm run build` first.
 * @param {string} root the checkout's root folder
 * @returns {Promise<string>} the folder to put in JUPYTER_PATH
 */
export async function setupKernel(root) {
  const { writeTslabKernelSpec } = await import("../dist/notebooks/writeTslabKernelSpec.js");
  return writeTslabKernelSpec(root);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const jupyterPath = await setupKernel(root);
  console.log(`tslab kernel spec written to ${join(jupyterPath, "kernels", KERNEL_NAME, "kernel.json")}`);
  console.log(`Open the notebooks with:  JUPYTER_PATH=${jupyterPath} jupyter lab notebooks/`);
  console.log(`(build the library first: npm run build; notebooks import from "market-intel-lab", i.e. dist/)`);
}
