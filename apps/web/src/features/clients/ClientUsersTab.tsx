import { userInputSchema } from "@cyclebill/domain";
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { formatIsoDate } from "../../lib/format";
import { validateForm, type FieldErrors } from "../auth/form-validation";
import { LoginAlerts } from "../auth/LoginAlerts";
import { useUser } from "../auth/user-context";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { useClientUsers, useDeleteClientUser, useSaveClientUser, type ClientUser } from "./users-api";
import { FormDialogFooter } from "../shell/FormDialogFooter";
import { HistoryTab } from "../audit/HistoryTab";
import { UserSessionsModal } from "../security/UserSessionsModal";
import { ResetSecondFactorAction } from "../security/ResetSecondFactorAction";

type Editing = { mode: "add" } | { mode: "edit"; user: ClientUser } | null;

/** The client's users: owners and admins add, edit and remove them. */
export function ClientUsersTab({ clientId }: { clientId: number }) {
  const me = useUser();
  const users = useClientUsers(clientId);
  const remove = useDeleteClientUser(clientId);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<ClientUser | null>(null);
  const [historyOf, setHistoryOf] = useState<ClientUser | null>(null);
  const [sessionsOf, setSessionsOf] = useState<ClientUser | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `${removing.email} was removed.` });
        setRemoving(null);
      },
    });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text fw={600}>Users</Text>
          <Text size="sm" c="dimmed">
            Owners see balances and manage users; staff work with customers and transactions.
          </Text>
        </div>
        <Button onClick={() => setEditing({ mode: "add" })}>Add User</Button>
      </Group>
      <LoginAlerts clientId={clientId} />

      {users.isPending ? (
        <Skeleton h={120} />
      ) : users.isError ? (
        <Alert color="red" title="The users could not be loaded">
          {describeApiError(users.error)}
        </Alert>
      ) : users.data.results.length === 0 ? (
        <Text c="dimmed" size="sm">
          No users yet. Add the client&apos;s owner first.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="xs" aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last login</Table.Th>
                <Table.Th ta="right">Logins</Table.Th>
                <Table.Th ta="right">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.results.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>{user.name || `${user.firstName} ${user.lastName}`}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={user.role === "staff" ? "gray" : "teal"}>
                      {user.role === "staff" ? "Staff" : user.role === "owner" ? "Owner" : "Admin"}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <UserStatus user={user} />
                  </Table.Td>
                  <Table.Td>{user.last_login ? formatIsoDate(user.last_login) : "Never"}</Table.Td>
                  <Table.Td ta="right">{user.login_count}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`Edit ${user.email}`}
                        onClick={() => setEditing({ mode: "edit", user })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`History of ${user.email}`}
                        onClick={() => setHistoryOf(user)}
                      >
                        History
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`Sessions of ${user.email}`}
                        onClick={() => setSessionsOf(user)}
                      >
                        Sessions
                      </Button>
                      {me.isAdmin ? <ResetSecondFactorAction user={user} /> : null}
                      {user.id === me.id ? null : (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${user.email}`}
                          onClick={() => setRemoving(user)}
                        >
                          Remove
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {editing ? (
        <UserDialog
          clientId={clientId}
          user={editing.mode === "edit" ? editing.user : null}
          onClose={() => setEditing(null)}
        />
      ) : null}

      <Modal
        opened={historyOf !== null}
        onClose={() => setHistoryOf(null)}
        title={`History of ${historyOf?.email ?? ""}`}
        size="80rem"
      >
        {historyOf ? (
          <HistoryTab
            filters={{ client_id: clientId, record_kind: "user", record_id: String(historyOf.id) }}
            canRead
          />
        ) : null}
      </Modal>

      {sessionsOf ? <UserSessionsModal user={sessionsOf} onClose={() => setSessionsOf(null)} /> : null}

      <ConfirmDeleteDialog
        opened={removing !== null}
        title="Remove user"
        confirmLabel="Remove user"
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        Remove <strong>{removing?.email}</strong> from this client? They can no longer log in to work on it.
      </ConfirmDeleteDialog>
    </Stack>
  );
}

function UserStatus({ user }: { user: ClientUser }) {
  if (!user.is_active) return <Badge color="gray">Inactive</Badge>;
  if (!user.has_password)
    return (
      <Badge color="yellow" variant="light">
        Invited
      </Badge>
    );
  return (
    <Badge color="teal" variant="dot">
      Active
    </Badge>
  );
}

type UserField = "firstName" | "lastName" | "email" | "isStaff" | "is_active";

function UserDialog({
  clientId,
  user,
  onClose,
}: {
  clientId: number;
  user: ClientUser | null;
  onClose: () => void;
}) {
  const save = useSaveClientUser(clientId);
  const [values, setValues] = useState({
    firstName: user?.firstName ?? "",
    lastName: user?.lastName ?? "",
    email: user?.email ?? "",
    isStaff: user ? user.is_client_staff : true,
    is_active: user ? user.is_active : true,
  });
  const [errors, setErrors] = useState<FieldErrors<UserField>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const text = (field: "firstName" | "lastName" | "email") => ({
    value: values[field],
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(userInputSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setProblem(null);
    save.mutate(
      { id: user?.id ?? null, body: result.data },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: "teal",
            message: user
              ? `${saved.email} was saved.`
              : `${saved.email} was added and emailed a link to set a password.`,
          });
          onClose();
        },
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status !== 400) return;
          const fields = fieldErrorsFromBody<UserField>(error.body, [
            "firstName",
            "lastName",
            "email",
            "isStaff",
            "is_active",
          ]);
          setErrors(fields);
          if (Object.keys(fields).length === 0) setProblem(describeApiError(error));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={user ? "Edit User" : "Add User"} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label="First name" withAsterisk data-autofocus {...text("firstName")} />
            <TextInput label="Last name" withAsterisk {...text("lastName")} />
          </Group>
          <TextInput label="Email" type="email" withAsterisk {...text("email")} />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Role
            </Text>
            <SegmentedControl
              aria-label="Role"
              value={values.isStaff ? "staff" : "owner"}
              onChange={(value) => setValues((current) => ({ ...current, isStaff: value === "staff" }))}
              data={[
                { value: "staff", label: "Staff" },
                { value: "owner", label: "Owner" },
              ]}
            />
          </Stack>
          {user ? (
            <Switch
              label="Active (can log in)"
              checked={values.is_active}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setValues((current) => ({ ...current, is_active: checked }));
              }}
            />
          ) : (
            <Text size="xs" c="dimmed">
              The new user gets an email with a link to set a password.
            </Text>
          )}
          <FormDialogFooter
            problem={problem}
            problemTitle="The user was not saved"
            submitLabel={user ? "Save User" : "Add User"}
            saving={save.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
