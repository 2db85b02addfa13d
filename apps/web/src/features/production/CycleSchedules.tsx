import { ADMIN_CYCLES } from "@cyclebill/domain";
import { Alert, Button, Group, Radio, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { describeApiError } from "../../api/api-client";
import { useDeleteSchedule, useSchedules, useSetSchedule } from "./schedule-api";

const APPROVAL = "approval";
const NO_APPROVAL = "run";

/** Each cycle day's schedule: the time it runs by itself, and whether its preview waits for approval. */
export function CycleSchedules() {
  const schedules = useSchedules();
  const save = useSetSchedule();
  const remove = useDeleteSchedule();
  const [cycle, setCycle] = useState<string | null>(null);
  const [runTime, setRunTime] = useState("06:00");
  const [mode, setMode] = useState(APPROVAL);
  const zone = schedules.data?.time_zone ?? "";
  const results = schedules.data?.results ?? [];

  const edit = (item: { cycle: number; run_time: string; requires_approval: boolean }) => {
    setCycle(String(item.cycle));
    setRunTime(item.run_time);
    setMode(item.requires_approval ? APPROVAL : NO_APPROVAL);
  };

  return (
    <Stack gap="xs">
      <Text fw={600}>Schedules{zone ? ` (times in ${zone})` : ""}</Text>
      {results.length > 0 ? (
        <Table aria-label="Cycle schedules" maw={640}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Cycle</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Before the run</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((item) => (
              <Table.Tr key={item.cycle}>
                <Table.Td>Cycle {item.cycle}</Table.Td>
                <Table.Td>{item.run_time}</Table.Td>
                <Table.Td>
                  {item.requires_approval ? "Hold the preview for approval" : "Run without approval"}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => edit(item)}>
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending && remove.variables === item.cycle}
                      onClick={() => remove.mutate(item.cycle)}
                    >
                      Remove schedule
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : schedules.data ? (
        <Text size="sm" c="dimmed">
          No cycle runs by itself yet: every run is started by hand.
        </Text>
      ) : null}
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label="Schedule cycle"
          placeholder="Cycle"
          data={ADMIN_CYCLES.map((n) => ({ value: String(n), label: `Cycle ${n}` }))}
          value={cycle}
          onChange={setCycle}
          w={160}
        />
        <TextInput
          label="Time of day"
          type="time"
          value={runTime}
          onChange={(event) => setRunTime(event.currentTarget.value)}
          w={140}
        />
        <Radio.Group label="Before the run" value={mode} onChange={setMode}>
          <Group gap="md" mt={6}>
            <Radio value={APPROVAL} label="Hold the preview for approval" />
            <Radio value={NO_APPROVAL} label="Run without approval" />
          </Group>
        </Radio.Group>
        <Button
          disabled={cycle === null}
          loading={save.isPending}
          onClick={() =>
            cycle !== null &&
            save.mutate({
              cycle: Number(cycle),
              runTime: runTime.slice(0, 5),
              requiresApproval: mode === APPROVAL,
            })
          }
        >
          Save schedule
        </Button>
      </Group>
      {save.isError ? <Alert color="red">{describeApiError(save.error)}</Alert> : null}
      {save.isSuccess ? (
        <Text size="sm" c="green">
          Cycle {save.data.cycle} runs at {save.data.run_time} on its day
          {save.data.requires_approval ? ", after approval" : ""}.
        </Text>
      ) : null}
    </Stack>
  );
}
