import type { JobRun } from "@cyclebill/domain";
import { Group, Progress, Text } from "@mantine/core";
import { nounFor, type Noun } from "../lib/plural";

/** A job run's progress as a bar with its step and done of total, as GET /api/jobs/{id}/ reports it. */
export function JobProgress({ run, unit }: { run: JobRun; unit: Noun }) {
  const many = unit.other ?? `${unit.one}s`;
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;
  const failed = run.status === "failed";
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text size="sm">{failed ? `Failed: ${run.error ?? "unknown error"}` : capitalise(run.step)}</Text>
        <Text size="sm">
          {run.done.toLocaleString()} of {run.total > 0 ? run.total.toLocaleString() : "…"}{" "}
          {run.total > 0 ? nounFor(run.total, unit) : many}
        </Text>
      </Group>
      <Progress
        value={run.status === "succeeded" ? 100 : percent}
        color={failed ? "red" : run.status === "succeeded" ? "teal" : "blue"}
        animated={!failed && run.status !== "succeeded"}
        aria-label={`${many} done`}
      />
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
