import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, Textarea, Title } from "@mantine/core";
import { WORK_ITEM_HEADINGS, WORK_ITEM_KINDS, handledByHand, type WorkItem } from "@cyclebill/domain";
import { useState } from "react";
import { Link } from "react-router";
import { describeApiError } from "../../api/api-client";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { addClientId } from "../../shared/client-context";
import { useUser } from "../auth/user-context";
import { useMarkHandled, useWorkQueue } from "./work-queue-api";

/** A date or a timestamp as the queue shows when an item arose. */
function sinceText(since: string): string {
  return since.length === 10 ? formatIsoDate(since) : new Date(since).toLocaleString("en-US");
}

/**
 * The bureau's work queue on Home: what needs a person today, grouped by kind, each item with the
 * button that opens the screen resolving it (and "Mark handled" where a person closes it by hand).
 * Admins see every client's (or the chosen client's); an owner their client's part.
 */
export function WorkQueue({ clientId }: { clientId: number | null }) {
  const user = useUser();
  const queue = useWorkQueue(clientId);
  const [handling, setHandling] = useState<WorkItem | null>(null);
  if (queue.isPending || queue.isError) return null;
  const items = queue.data.results;
  const allClients = clientId === null;
  return (
    <Card withBorder padding="lg" component="section" aria-label="Today's work">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Today&apos;s work
        </Title>
        <Text size="sm" c="dimmed">
          {items.length === 0
            ? "Nothing needs you today."
            : `${String(queue.data.count)} ${queue.data.count === 1 ? "item" : "items"}`}
        </Text>
      </Group>
      <Stack gap="md">
        {WORK_ITEM_KINDS.map((kind) => {
          const group = items.filter((item) => item.kind === kind);
          if (group.length === 0) return null;
          return (
            <section key={kind} aria-label={WORK_ITEM_HEADINGS[kind]}>
              <Text fw={600} size="sm" mb={4}>
                {WORK_ITEM_HEADINGS[kind]}{" "}
                <Badge size="sm" variant="light">
                  {group.length}
                </Badge>
              </Text>
              <Stack gap={6} component="ul" p={0} m={0}>
                {group.map((item) => (
                  <Group
                    key={`${String(item.client_id ?? "provider")}-${item.key}`}
                    component="li"
                    justify="space-between"
                    wrap="wrap"
                    gap="xs"
                    style={{ listStyle: "none", borderBottom: "1px solid var(--mantine-color-gray-2)" }}
                    pb={6}
                  >
                    <Stack gap={0} style={{ minWidth: 0, flex: "1 1 320px" }}>
                      <Text size="sm" fw={500}>
                        {allClients && item.client_name ? `${item.client_name} · ` : ""}
                        {item.title}
                        {item.amount ? ` · ${formatAmount(item.amount)}` : ""}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                        {item.detail} · {sinceText(item.since)}
                      </Text>
                    </Stack>
                    <Group gap={6} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        component={Link}
                        to={user.isAdmin ? addClientId(item.action.to, item.client_id) : item.action.to}
                      >
                        {item.action.label}
                      </Button>
                      {item.handled_by_hand ? (
                        <Button size="compact-sm" variant="default" onClick={() => setHandling(item)}>
                          Mark handled
                        </Button>
                      ) : null}
                    </Group>
                  </Group>
                ))}
              </Stack>
            </section>
          );
        })}
      </Stack>
      {handling ? <HandledDialog item={handling} onClose={() => setHandling(null)} /> : null}
    </Card>
  );
}

function HandledDialog({ item, onClose }: { item: WorkItem; onClose: () => void }) {
  const [note, setNote] = useState("");
  const mark = useMarkHandled();
  return (
    <Modal opened onClose={onClose} title="Mark handled">
      <Stack>
        <Text size="sm">
          {item.title}: {item.detail}. It leaves the queue; the note is kept in the audit trail.
        </Text>
        <Textarea
          label="What was done"
          placeholder="Called the customer; a new card comes Friday."
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
        />
        {mark.isError ? <Alert color="red">{describeApiError(mark.error)}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={mark.isPending}
            onClick={() => {
              if (handledByHand(item.kind) && item.client_id !== null)
                mark.mutate(
                  { clientId: item.client_id, payload: { kind: item.kind, key: item.key, note } },
                  { onSuccess: onClose },
                );
            }}
          >
            Mark handled
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
