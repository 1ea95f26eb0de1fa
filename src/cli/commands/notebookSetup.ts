import { Command } from "commander";
import { join } from "node:path";
import { TSLAB_KERNEL_NAME, writeTslabKernelSpec } from "../../notebooks/writeTslabKernelSpec.js";

/**
 * `milab notebook-setup`: in the user's own project folder (where
 * `npm install <market-intel-lab tarball> && npm install -D tslab` ran), write
 * the tslab kernel spec into `./.jupyter-kernel/` and print how to open the
 * notebooks with it.
 */
export function notebookSetupCommand(): Command {
  return new Command("notebook-setup")
    .description("write the tslab (TypeScript) Jupyter kernel spec into ./.jupyter-kernel/ of this folder (needs: npm install -D tslab)")
    .option("--dir <folder>", "the project folder (where node_modules/.bin/tslab is)", ".")
    .action((opts: { dir: string }) => {
      const jupyterPath = writeTslabKernelSpec(opts.dir);
      process.stdout.write(
        `tslab kernel spec written to ${join(jupyterPath, "kernels", TSLAB_KERNEL_NAME, "kernel.json")}\n` +
          `Open notebooks with:  JUPYTER_PATH=${jupyterPath} jupyter lab\n` +
          `Run one headless:     JUPYTER_PATH=${jupyterPath} jupyter nbconvert --to notebook --execute my.ipynb --output out.ipynb\n`,
      );
    });
}
