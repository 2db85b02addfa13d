import { useState } from "react";
import type { PoolRecord } from "@cyclebill/domain";
import { Alert, Badge, Button, Group, Modal, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { useDownload } from "../../api/download";
import { describeApiError } from "../../api/api-client";
import { LoadingRows } from "../shell/LoadingRows";
import { useDeletePool, usePools } from "./production-api";
import { countOf } from "../../lib/plural";

const STATE_COLORS: Record<PoolRecord["state"], string> = { building: "blue", ready: "green", failed: "red" };

function fileSize(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The print pools of the latest runs: counts, state and progress, the zip download, delete. */
export function PoolList() {
  const pools = usePools(50);
  const download = useDownload();
  const remove = useDeletePool();
  const [deleting, setDeleting] = useState<PoolRecord | null>(null);
  const rows = pools.data?.results ?? [];

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.pool_name, { onSuccess: () => setDeleting(null) });
  };

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Pools
      </Title>
      <Text size="sm" c="dimmed">
        Each run puts its paper statements in a pool per client and fulfilment, in delivery order (by group
        and stop, then customer number). A pool's zip holds one print-ready PDF and a manifest.
      </Text>
      <Table.ScrollContainer minWidth={980}>
        <Table striped aria-label="Pools">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pool</Table.Th>
              <Table.Th>Client</Table.Th>
              <Table.Th>Fulfilment</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th ta="right">Statements</Table.Th>
              <Table.Th ta="right">Pages</Table.Th>
              <Table.Th ta="right">Size</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pools.isPending ? <LoadingRows columns={8} rows={2} /> : null}
            {rows.map((pool) => (
              <Table.Tr key={pool.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {pool.pool_name}
                  </Text>
                </Table.Td>
                <Table.Td>{pool.client_name}</Table.Td>
                <Table.Td>{pool.fulfilment_label}</Table.Td>
                <Table.Td miw={170}>
                  <PoolState pool={pool} />
                </Table.Td>
                <Table.Td ta="right">{pool.statements.toLocaleString("en-US")}</Table.Td>
                <Table.Td ta="right">{pool.pages.toLocaleString("en-US")}</Table.Td>
                <Table.Td ta="right">{fileSize(pool.file_bytes)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    {pool.actions.includes("download") ? (
                      <Button
                        size="xs"
                        variant="light"
                        loading={
                          download.isPending && download.variables?.fallbackName === `${pool.pool_name}.zip`
                        }
                        onClick={() =>
                          download.mutate({
                            path: `/dailyproduction/download/pool/${encodeURIComponent(pool.pool_name)}/`,
                            fallbackName: `${pool.pool_name}.zip`,
                          })
                        }
                      >
                        Download
                      </Button>
                    ) : null}
                    {pool.actions.includes("delete") ? (
                      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(pool)}>
                        Delete
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pools.isSuccess && rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No pools yet: a production run makes them.
        </Text>
      ) : null}
      {pools.isError ? <Alert color="red">{describeApiError(pools.error)}</Alert> : null}
      {download.isError ? <Alert color="red">{describeApiError(download.error)}</Alert> : null}

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete this pool?">
        <Stack gap="sm">
          <Text>
            Delete pool <b>{deleting?.pool_name}</b> and its files (
            {countOf(deleting?.statements ?? 0, "statement")})?
          </Text>
          <Text size="sm" c="dimmed">
            The statements themselves and every ledger entry stay as they are; only the print files go. A pool
            that was downloaded stays recorded as gone out, so its run still cannot be undone.
          </Text>
          {remove.isError ? <Alert color="red">{describeApiError(remove.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={confirmDelete} loading={remove.isPending}>
              Delete pool
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function PoolState({ pool }: { pool: PoolRecord }) {
  const badge = (
    <Badge color={STATE_COLORS[pool.state]} variant="light">
      {pool.state}
    </Badge>
  );
  if (pool.state === "building") {
    const percent = pool.statements === 0 ? 0 : Math.round((pool.done / pool.statements) * 100);
    return (
      <Stack gap={4}>
        <Group gap="xs">
          {badge}
          <Text size="xs" c="dimmed">
            {pool.done} of {pool.statements}
          </Text>
        </Group>
        <Progress value={percent} animated aria-label={`${pool.pool_name} progress`} />
      </Stack>
    );
  }
  if (pool.state === "failed")
    return (
      <Stack gap={2}>
        {badge}
        <Text size="xs" c="red">
          {pool.error}
        </Text>
      </Stack>
    );
  return badge;
}
