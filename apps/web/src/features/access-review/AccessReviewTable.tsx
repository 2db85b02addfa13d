import type { AccessReviewUser } from "@cyclebill/domain";
import { Alert, Badge, Group, Stack, Table, Text } from "@mantine/core";
import type { SortState } from "../../lib/paging";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { formatMoment } from "../../lib/format";
import { countOf } from "../../lib/plural";

export type AccessReviewSortField = "email" | "role" | "client" | "last_sign_in" | "open_sessions";

/** Rows per page of the review. */
export const ACCESS_REVIEW_PAGE_SIZES = [25, 50, 100] as const;

const ROLE_LABELS: Record<AccessReviewUser["role"], string> = {
  admin: "Admin",
  owner: "Owner",
  staff: "Staff",
};

/** The user's second factors, and whether they must keep one. */
function Factors({ user }: { user: AccessReviewUser }) {
  const none = !user.totp && user.passkeys === 0;
  return (
    <Stack gap={2}>
      <Text size="sm">
        Authenticator app: {user.totp ? "yes" : "no"}
        {user.totp ? ` · ${countOf(user.recovery_codes_left, "recovery code")} left` : ""}
      </Text>
      <Text size="sm">Passkeys: {user.passkeys}</Text>
      {user.second_factor_required ? (
        <Text size="xs" c={none ? "red.8" : "dimmed"} fw={none ? 600 : undefined}>
          {none ? "Required, none set up" : "Required"}
        </Text>
      ) : null}
    </Stack>
  );
}

export type AccessReviewTableProps = {
  users: readonly AccessReviewUser[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  sort: SortState<AccessReviewSortField>;
  onSort: (field: AccessReviewSortField) => void;
  /** Provider-wide: each user's client is shown. */
  showClient: boolean;
  loading: boolean;
  error: Error | null;
};

/** Each user: who, role, client, account state, second factors, last sign-in and open sessions. */
export function AccessReviewTable(props: AccessReviewTableProps) {
  const { users, sort, onSort, showClient } = props;
  if (props.error) return <Alert color="red">{props.error.message}</Alert>;
  const columns = showClient ? 7 : 6;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={showClient ? 980 : 860}>
        <Table striped verticalSpacing="sm" aria-label="Users and their access">
          <Table.Thead>
            <Table.Tr>
              <SortableTh field="email" sort={sort} onSort={onSort}>
                User
              </SortableTh>
              <SortableTh field="role" sort={sort} onSort={onSort}>
                Role
              </SortableTh>
              {showClient ? (
                <SortableTh field="client" sort={sort} onSort={onSort}>
                  Client
                </SortableTh>
              ) : null}
              <Table.Th>Account</Table.Th>
              <Table.Th>Second factors</Table.Th>
              <SortableTh field="last_sign_in" sort={sort} onSort={onSort}>
                Last sign-in
              </SortableTh>
              <SortableTh field="open_sessions" sort={sort} onSort={onSort} align="right">
                Open sessions
              </SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users?.map((user) => (
              <Table.Tr key={user.user_id}>
                <Table.Td valign="top">
                  <Text size="sm" fw={500}>
                    {user.name || user.email}
                  </Text>
                  {user.name ? (
                    <Text size="xs" c="dimmed">
                      {user.email}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td valign="top">
                  <Badge variant="light" radius="sm" color={user.role === "staff" ? "gray" : "blue"}>
                    {ROLE_LABELS[user.role]}
                  </Badge>
                </Table.Td>
                {showClient ? (
                  <Table.Td valign="top">
                    <Text size="sm">{user.client_name ?? "Provider"}</Text>
                  </Table.Td>
                ) : null}
                <Table.Td valign="top">
                  <Group gap={4}>
                    <Badge variant="outline" radius="sm" color={user.active ? "teal" : "red"}>
                      {user.active ? "Active" : "Disabled"}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed" mt={4}>
                    {user.email_proven ? "Email proven" : "Email not proven"}
                  </Text>
                </Table.Td>
                <Table.Td valign="top">
                  <Factors user={user} />
                </Table.Td>
                <Table.Td valign="top">
                  <Text size="sm">{formatMoment(user.last_sign_in, { absent: "Never" })}</Text>
                </Table.Td>
                <Table.Td valign="top" ta="right">
                  {user.open_sessions}
                </Table.Td>
              </Table.Tr>
            ))}
            {users && users.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text c="dimmed">{props.loading ? "Loading…" : "No users."}</Text>
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
        noun={{ one: "user" }}
        pageSizeOptions={ACCESS_REVIEW_PAGE_SIZES}
      />
    </Stack>
  );
}
