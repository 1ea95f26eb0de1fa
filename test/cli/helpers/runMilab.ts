/** Run the built `milab` (dist/cli/main.js) as a child process and collect its output. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { scaledMs } from "../../support/timeScale.js";

export const MAIN = fileURLToPath(new URL("../../../dist/cli/main.js", import.meta.url));

export interface MilabRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runMilab(args: readonly string[], env: Record<string, string | undefined> = {}, timeoutMs = scaledMs(110_000)): Promise<MilabRun> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build; npm test builds before running vitest)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, MI_BASE_URL: undefined, MI_API_KEY: undefined, ...env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`milab ${args.join(" ")} did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
