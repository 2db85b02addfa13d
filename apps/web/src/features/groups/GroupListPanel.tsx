import { groupInputSchema } from "@cyclebill/domain";
import {
  Alert,
  Button,
  Group as MantineGroup,
  Paper,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { UseQueryResult } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { DEFAULT_PAGE_SIZE, pageCount, pageSlice } from "../../lib/paging";
import { validateForm } from "../auth/form-validation";
import type { Page } from "@cyclebill/domain";
import { LoadingRows } from "../shell/LoadingRows";
import { TablePager } from "../shell/TablePager";
import { useSaveGroup, type Group } from "./groups-api";
import { RefreshButton } from "../shell/RefreshButton";

/** The client's groups: create one, filter, and pick one to manage (15 per page). */
export function GroupListPanel({
  clientId,
  groups,
  selectedId,
  onSelect,
}: {
  clientId: number;
  groups: UseQueryResult<Page<Group>>;
  selectedId: number | null;
  onSelect: (groupId: number | null) => void;
}) {
  const create = useSaveGroup(clientId);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | undefined>();
  const [filter, setFilter] = useState("");
  const [page, setPage] = useState(1);

  const words = filter.trim().toLowerCase();
  const all = groups.data?.results ?? [];
  const visible = words ? all.filter((group) => group.route_name.toLowerCase().includes(words)) : all;
  const pages = pageCount(visible.length, DEFAULT_PAGE_SIZE);
  const currentPage = Math.min(page, pages);
  const rows = pageSlice(visible, currentPage, DEFAULT_PAGE_SIZE);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(groupInputSchema, { route_name: name });
    if (!result.ok) {
      setNameError(result.errors.route_name);
      return;
    }
    setNameError(undefined);
    create.mutate(
      { id: null, body: result.data },
      {
        onSuccess: (group) => {
          setName("");
          notifications.show({ color: "teal", message: `Group “${group.route_name}” was created.` });
          onSelect(group.id);
        },
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status !== 400) return;
          const fields = fieldErrorsFromBody(error.body, ["route_name"] as const);
          setNameError(fields.route_name ?? describeApiError(error));
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-label="Groups">
      <MantineGroup justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Groups
        </Title>
        <RefreshButton
          label="Refresh groups"
          loading={groups.isFetching}
          onClick={() => void groups.refetch()}
        />
      </MantineGroup>

      <form onSubmit={submit} noValidate>
        <MantineGroup gap="xs" align="flex-start" wrap="nowrap" mb="md">
          <TextInput
            aria-label="New group name"
            placeholder="New group name"
            style={{ flex: 1 }}
            value={name}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(undefined);
            }}
          />
          <Button type="submit" loading={create.isPending}>
            Create Group
          </Button>
        </MantineGroup>
      </form>

      <TextInput
        aria-label="Filter groups"
        placeholder="Filter groups"
        size="xs"
        mb="xs"
        value={filter}
        onChange={(event) => {
          setFilter(event.currentTarget.value);
          setPage(1);
        }}
      />

      {groups.isError ? (
        <Alert color="red" title="The groups could not be loaded">
          {describeApiError(groups.error)}
        </Alert>
      ) : (
        <Table verticalSpacing={6} aria-label="Group list">
          <Table.Tbody>
            {groups.isPending ? (
              <LoadingRows columns={1} rows={4} />
            ) : rows.length === 0 ? (
              <Table.Tr>
                <Table.Td>
                  <Text c="dimmed" size="sm" ta="center" py="md">
                    {all.length === 0 ? "No groups yet. Create the first one above." : "No groups match."}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((group) => {
                const active = group.id === selectedId;
                return (
                  <Table.Tr key={group.id} bg={active ? "var(--mantine-color-teal-light)" : undefined}>
                    <Table.Td p={0}>
                      <UnstyledButton
                        w="100%"
                        px="sm"
                        py={8}
                        aria-current={active ? "true" : undefined}
                        onClick={() => onSelect(group.id)}
                      >
                        <Text size="sm" fw={active ? 600 : 400} c={active ? "teal.8" : undefined}>
                          {group.route_name}
                        </Text>
                      </UnstyledButton>
                    </Table.Td>
                  </Table.Tr>
                );
              })
            )}
          </Table.Tbody>
        </Table>
      )}
      <TablePager
        total={visible.length}
        page={currentPage}
        pageSize={DEFAULT_PAGE_SIZE}
        onPageChange={setPage}
        noun={{ one: "group" }}
      />
    </Paper>
  );
}
