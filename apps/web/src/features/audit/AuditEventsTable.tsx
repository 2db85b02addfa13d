import type { AuditEvent } from "@cyclebill/domain";
import { Alert, Badge, Stack, Table, Text } from "@mantine/core";
import { formatMoment } from "../../lib/format";
import { TablePager } from "../shell/TablePager";

/** Rows per page of a trail list (its first is a History tab's default). */
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;

function shown(value: string | null): string {
  return value === null ? "—" : value === "" ? "(empty)" : value;
}

/** The fields an event changed: each one's value before and after. */
export function AuditChanges({ event }: { event: AuditEvent }) {
  if (event.changes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No field changed
      </Text>
    );
  return (
    <Table withRowBorders={false} verticalSpacing={2} fz="sm" aria-label={`Changes of ${event.action}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {event.changes.map((change) => (
          <Table.Tr key={change.field}>
            <Table.Td>{change.field}</Table.Td>
            <Table.Td style={{ wordBreak: "break-word" }}>{shown(change.before)}</Table.Td>
            <Table.Td style={{ wordBreak: "break-word" }}>{shown(change.after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export type AuditEventsTableProps = {
  label: string;
  events: readonly AuditEvent[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  loading: boolean;
  error: Error | null;
  /** Show the record column (the Audit screen); a record's History tab leaves it out. */
  showRecord?: boolean;
};

/** Trail rows: when, who and from where, what, each changed field before and after, and why. */
export function AuditEventsTable(props: AuditEventsTableProps) {
  const { events, showRecord = false } = props;
  if (props.error) return <Alert color="red">{props.error.message}</Alert>;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table striped verticalSpacing="sm" aria-label={props.label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={170}>When</Table.Th>
              <Table.Th w={220}>Who</Table.Th>
              <Table.Th w={190}>Action</Table.Th>
              <Table.Th>Changes</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events?.map((event) => (
              <Table.Tr key={`${String(event.client_id)}-${event.seq}`}>
                <Table.Td valign="top">{formatMoment(event.at, { seconds: true })}</Table.Td>
                <Table.Td valign="top">
                  <Text size="sm">{event.actor}</Text>
                  <Text size="xs" c="dimmed">
                    {event.actor_kind}
                    {event.address ? ` · ${event.address}` : ""}
                  </Text>
                  {event.user_agent ? (
                    <Text size="xs" c="dimmed" lineClamp={1} title={event.user_agent}>
                      {event.user_agent}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td valign="top">
                  <Badge variant="light" radius="sm">
                    {event.action}
                  </Badge>
                  {showRecord ? (
                    <Text size="xs" c="dimmed" mt={4}>
                      {event.record_kind} {event.record_id}
                      {event.client_id === null ? " · provider" : ` · client ${event.client_id}`}
                    </Text>
                  ) : null}
                  {event.reason ? (
                    <Text size="xs" mt={4}>
                      Reason: {event.reason}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td valign="top">
                  <AuditChanges event={event} />
                </Table.Td>
              </Table.Tr>
            ))}
            {events && events.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed">{props.loading ? "Loading…" : "Nothing recorded yet."}</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        total={props.total}
        page={props.page}
        pageSize={props.pageSize}
        onPageChange={props.onPageChange}
        onPageSizeChange={props.onPageSizeChange}
        noun={{ one: "change" }}
        pageSizeOptions={AUDIT_PAGE_SIZES}
      />
    </Stack>
  );
}
