import { Button, Group as MantineGroup, NumberInput, Select, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect, useState } from "react";
import { ApiError, allMessages } from "../../api/api-client";
import { DEFAULT_PAGE_SIZE, pageCount, pageSlice } from "../../lib/paging";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { TablePager } from "../shell/TablePager";
import { BILL_INDICATOR_OPTIONS, StatusBadge } from "./MemberStatus";
import { maxPosition, stopForPosition } from "./group-positions";
import {
  useRemoveMember,
  useUpdateMember,
  type BillIndicatorFlag,
  type Group,
  type RoutePlan,
} from "./groups-api";

type Editing = { id: number; position: string | number; flag: BillIndicatorFlag; error?: string };

const SAVED_MARK_MS = 2_500;

/** A group's customers in stop order, 15 per page; each row can be moved, re-flagged or removed. */
export function MembersTable({
  clientId,
  group,
  members,
}: {
  clientId: number;
  group: Group;
  members: readonly RoutePlan[];
}) {
  const update = useUpdateMember(clientId);
  const remove = useRemoveMember(clientId);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [savedId, setSavedId] = useState<number | null>(null);
  const [removing, setRemoving] = useState<RoutePlan | null>(null);
  const size = members.length;
  const pages = pageCount(size, DEFAULT_PAGE_SIZE);
  const currentPage = Math.min(page, pages);
  const rows = pageSlice(members, currentPage, DEFAULT_PAGE_SIZE);

  useEffect(() => {
    if (savedId === null) return;
    const timer = window.setTimeout(() => setSavedId(null), SAVED_MARK_MS);
    return () => window.clearTimeout(timer);
  }, [savedId]);

  const save = () => {
    if (!editing) return;
    const member = members.find((candidate) => candidate.id === editing.id);
    if (!member) return;
    update.mutate(
      {
        id: member.id,
        body: {
          route: group.id,
          customer: member.customer,
          stop: stopForPosition(editing.position, size, false),
          bill_indicator_flag: editing.flag,
        },
      },
      {
        onSuccess: (saved) => {
          setEditing(null);
          setSavedId(saved.id);
          // Follow the member to the page it moved to.
          setPage(Math.ceil(saved.position / DEFAULT_PAGE_SIZE));
        },
        onError: (error) => {
          // A failed save stays in editing, with the reason.
          const message =
            error instanceof ApiError
              ? (allMessages(error.body)[0] ?? error.message)
              : "The change was not saved.";
          setEditing((current) => (current ? { ...current, error: message } : current));
        },
      },
    );
  };

  const confirmRemove = () => {
    if (!removing) return;
    const target = removing;
    remove.mutate(target.id, {
      onSuccess: () => {
        notifications.show({
          color: "teal",
          message: `${target.customer_label} was removed from the group.`,
        });
        setRemoving(null);
      },
    });
  };

  if (size === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg">
        No customers in this group yet. Add the first one above.
      </Text>
    );
  }

  return (
    <>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" highlightOnHover aria-label="Customers in the group">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={110}>Position</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th w={170}>Processing status</Table.Th>
              <Table.Th w={170} ta="right">
                Actions
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((member) =>
              editing?.id === member.id ? (
                <Table.Tr key={member.id} bg="var(--mantine-color-yellow-0)" data-state="editing">
                  <Table.Td>
                    <NumberInput
                      size="xs"
                      aria-label="Position"
                      min={1}
                      max={maxPosition(size, false)}
                      clampBehavior="blur"
                      allowDecimal={false}
                      allowNegative={false}
                      value={editing.position}
                      error={editing.error}
                      onChange={(value) => setEditing({ ...editing, position: value, error: undefined })}
                      onKeyDown={(event) => {
                        if (event.key === "Enter") {
                          event.preventDefault();
                          save();
                        } else if (event.key === "Escape") setEditing(null);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>{member.customer_label}</Table.Td>
                  <Table.Td>
                    <Select
                      size="xs"
                      aria-label="Processing status"
                      data={BILL_INDICATOR_OPTIONS}
                      allowDeselect={false}
                      value={editing.flag}
                      onChange={(value) =>
                        setEditing({ ...editing, flag: (value as BillIndicatorFlag | null) ?? editing.flag })
                      }
                    />
                  </Table.Td>
                  <Table.Td>
                    <MantineGroup gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" onClick={save} loading={update.isPending}>
                        Save
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => setEditing(null)}
                        disabled={update.isPending}
                      >
                        Cancel
                      </Button>
                    </MantineGroup>
                  </Table.Td>
                </Table.Tr>
              ) : (
                <Table.Tr
                  key={member.id}
                  bg={savedId === member.id ? "var(--mantine-color-teal-0)" : undefined}
                  data-state={savedId === member.id ? "saved" : "viewing"}
                >
                  <Table.Td fw={600} style={{ fontVariantNumeric: "tabular-nums" }} data-testid="position">
                    {member.position}
                  </Table.Td>
                  <Table.Td>{member.customer_label}</Table.Td>
                  <Table.Td>
                    <StatusBadge flag={member.bill_indicator_flag} archiveState={member.archive_state} />
                  </Table.Td>
                  <Table.Td>
                    <MantineGroup gap={4} justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`Edit ${member.customer_label}`}
                        disabled={editing !== null}
                        onClick={() =>
                          setEditing({
                            id: member.id,
                            position: member.position,
                            flag: member.bill_indicator_flag,
                          })
                        }
                      >
                        Edit
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${member.customer_label}`}
                        disabled={editing !== null}
                        onClick={() => setRemoving(member)}
                      >
                        Remove
                      </Button>
                    </MantineGroup>
                  </Table.Td>
                </Table.Tr>
              ),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        total={size}
        page={currentPage}
        pageSize={DEFAULT_PAGE_SIZE}
        onPageChange={setPage}
        noun={{ one: "customer" }}
      />
      <ConfirmDeleteDialog
        opened={removing !== null}
        title="Remove customer from group"
        confirmLabel="Remove"
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        Remove <strong>{removing?.customer_label}</strong> from {group.route_name}? The customers after it
        move up one position.
      </ConfirmDeleteDialog>
    </>
  );
}
