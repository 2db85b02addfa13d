import { groupInputSchema } from "@cyclebill/domain";
import {
  Alert,
  Button,
  Divider,
  Group as MantineGroup,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { useDownload } from "../../api/download";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { validateForm } from "../auth/form-validation";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { DownloadIcon } from "../shell/icons";
import { AddMemberForm } from "./AddMemberForm";
import { MembersTable } from "./MembersTable";
import { useDeleteGroup, useGroupDetail, useSaveGroup, type Group } from "./groups-api";
import { countOf } from "../../lib/plural";

/** The selected group: its name, report, the add-customer form and the members in stop order. */
export function GroupDetailPanel({
  clientId,
  groups,
  group,
  onSelect,
}: {
  clientId: number;
  groups: readonly Group[];
  group: Group | null;
  onSelect: (groupId: number | null) => void;
}) {
  const detail = useGroupDetail(clientId, group?.id ?? null);
  const members = detail.data?.details ?? [];

  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-label="Group detail">
      {group ? (
        <GroupHeader
          clientId={clientId}
          group={group}
          size={detail.data ? members.length : null}
          onDeleted={() => onSelect(null)}
        />
      ) : (
        <div>
          <Title order={2} size="h4">
            No group selected
          </Title>
          <Text size="sm" c="dimmed">
            Choose a group from the list to see its customers, or pick one below to add a customer to it.
          </Text>
        </div>
      )}

      <Divider my="md" />
      <AddMemberForm
        clientId={clientId}
        groups={groups}
        group={group}
        members={members}
        onSelectGroup={onSelect}
      />
      <Divider my="md" />

      {group === null ? (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          The customers of the selected group appear here, in the order of their stops.
        </Text>
      ) : detail.isPending ? (
        <Stack gap="xs">
          <Skeleton h={28} />
          <Skeleton h={28} />
          <Skeleton h={28} />
        </Stack>
      ) : detail.isError ? (
        <Alert color="red" title="The group could not be loaded">
          {describeApiError(detail.error)}
        </Alert>
      ) : (
        <MembersTable key={group.id} clientId={clientId} group={group} members={members} />
      )}
    </Paper>
  );
}

function GroupHeader({
  clientId,
  group,
  size,
  onDeleted,
}: {
  clientId: number;
  group: Group;
  size: number | null;
  onDeleted: () => void;
}) {
  const rename = useSaveGroup(clientId);
  const remove = useDeleteGroup(clientId);
  const download = useDownload();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(group.route_name);
  const [nameError, setNameError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);
  // One header for whichever group is selected: its local state starts over when the selection
  // changes (reset during render rather than by remounting with a key, which left the previous
  // group's header, with live buttons, in the page under React 19.3).
  const [shownGroupId, setShownGroupId] = useState(group.id);
  if (shownGroupId !== group.id) {
    setShownGroupId(group.id);
    setRenaming(false);
    setName(group.route_name);
    setNameError(undefined);
    setDeleting(false);
  }

  const submitRename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(groupInputSchema, { route_name: name });
    if (!result.ok) {
      setNameError(result.errors.route_name);
      return;
    }
    rename.mutate(
      { id: group.id, body: result.data },
      {
        onSuccess: (saved) => {
          setRenaming(false);
          notifications.show({ color: "teal", message: `The group is now called “${saved.route_name}”.` });
        },
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status !== 400) return;
          setNameError(fieldErrorsFromBody(error.body, ["route_name"] as const).route_name ?? error.message);
        },
      },
    );
  };

  const confirmDelete = () =>
    remove.mutate(group.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `Group “${group.route_name}” was deleted.` });
        setDeleting(false);
        onDeleted();
      },
    });

  if (renaming) {
    return (
      <form onSubmit={submitRename} noValidate>
        <MantineGroup gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label="Group name"
            style={{ flex: 1 }}
            data-autofocus
            value={name}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(undefined);
            }}
            onKeyDown={(event) => {
              if (event.key === "Escape") setRenaming(false);
            }}
          />
          <Button type="submit" loading={rename.isPending}>
            Save Name
          </Button>
          <Button variant="default" onClick={() => setRenaming(false)} disabled={rename.isPending}>
            Cancel
          </Button>
        </MantineGroup>
      </form>
    );
  }

  return (
    <>
      <MantineGroup justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={2} size="h4">
            {group.route_name}
          </Title>
          <Text size="sm" c="dimmed">
            {size === null ? "Loading customers…" : countOf(size, "customer")}
          </Text>
        </div>
        <MantineGroup gap="xs">
          <Button
            variant="default"
            size="sm"
            leftSection={<DownloadIcon />}
            loading={download.isPending}
            onClick={() =>
              download.mutate({
                path: `/pdf/route-reports/${String(group.id)}`,
                query: { client_id: clientId },
                fallbackName: `Group Report ${String(group.id)}.pdf`,
              })
            }
          >
            Group Report
          </Button>
          <Button
            variant="default"
            size="sm"
            onClick={() => {
              setName(group.route_name);
              setRenaming(true);
            }}
          >
            Rename
          </Button>
          <Button variant="light" color="red" size="sm" onClick={() => setDeleting(true)}>
            Delete Group
          </Button>
        </MantineGroup>
      </MantineGroup>
      <ConfirmDeleteDialog
        opened={deleting}
        title="Delete group"
        confirmLabel="Delete group"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(false)}
      >
        Delete the group <strong>{group.route_name}</strong>? Its customers leave the group; the customers
        themselves are kept.
      </ConfirmDeleteDialog>
    </>
  );
}
