// `npm run soak -- --statements [--sequences K] [--seed N] [--processes P]`: the statement model's
// property test (apps/server/src/modules/production/statement-model.test.ts) with K random sequences
// (1,000 by default) on PostgreSQL, split over P test processes (3 by default) whose seeds are N,
// N+1, ... A sequence spends most of its time waiting on jobs and the gateway sandbox, so three
// processes run 1,000 sequences in about 36 minutes on two cores instead of 60. Each process prints its seed and how many
// statements it compared with the model; a failure prints the shrunk sequence and the seed that
// replays it (`--processes 1 --seed S`).
import { spawn } from "node:child_process";
import path from "node:path";

function runOne(root: string, databaseUrl: string, seed: number, sequences: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(
      "npx",
      ["vitest", "run", "--project", "server", "apps/server/src/modules/production/statement-model.test.ts"],
      {
        cwd: root,
        stdio: "inherit",
        env: {
          ...process.env,
          TEST_DB: "postgres",
          TEST_DATABASE_URL: databaseUrl,
          STATEMENT_MODEL_RUNS: String(sequences),
          STATEMENT_MODEL_SEED: String(seed),
        },
      },
    );
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

export async function runStatementSoak(options: {
  seed: number | undefined;
  sequences: number;
  processes: number;
  databaseUrl: string;
}): Promise<number> {
  if (![options.sequences, options.processes].every((n) => Number.isInteger(n) && n > 0))
    throw new Error("--sequences and --processes take whole numbers above 0");
  const root = path.resolve(import.meta.dirname, "../..");
  const baseSeed = options.seed ?? Math.floor(Math.random() * 2 ** 30);
  const processes = Math.min(options.processes, options.sequences);
  console.log(
    `statement soak: ${String(options.sequences)} sequences in ${String(processes)} processes, ` +
      `seeds ${String(baseSeed)}..${String(baseSeed + processes - 1)}`,
  );
  const began = performance.now();
  const shares = Array.from(
    { length: processes },
    (_, i) => Math.floor(options.sequences / processes) + (i < options.sequences % processes ? 1 : 0),
  );
  const codes = await Promise.all(
    shares.map((share, i) => runOne(root, options.databaseUrl, baseSeed + i, share)),
  );
  const failed = codes.filter((code) => code !== 0).length;
  console.log(
    `statement soak: ${String(options.sequences)} sequences, ${String(processes - failed)} of ` +
      `${String(processes)} processes passed, ${((performance.now() - began) / 60_000).toFixed(1)} min`,
  );
  return failed === 0 ? 0 : 1;
}
