import { CLIENT_STATUS_LABELS, type ClientStatusCode } from "@cyclebill/domain";
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { describeApiError } from "../../api/api-client";
import { DEFAULT_PAGE_SIZE, nextSort, orderingParam, type SortState } from "../../lib/paging";
import { EditDeleteButtons } from "../shell/EditDeleteButtons";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { AddClientDialog } from "./AddClientDialog";
import { DeleteClientDialog } from "./DeleteClientDialog";
import { AdminOnly } from "./ClientRequired";
import { useClientList, useDeleteClient } from "./client-api";
import { CLIENT_ID_PARAM, useClientContext } from "../../shared/client-context";
import type { ClientRecord } from "./client-record";
import { RefreshButton } from "../shell/RefreshButton";

type ClientSortField = "client_no" | "client_name" | "city" | "state" | "status_code" | "normal_cycle";

/** Spec section 9: the filter waits for a pause in typing. */
const FILTER_DEBOUNCE_MS = 300;

export function ClientListPage() {
  return (
    <Stack gap="md">
      <AdminOnly>
        <ClientList />
      </AdminOnly>
    </Stack>
  );
}

function ClientList() {
  const navigate = useNavigate();
  const { clientId: selectedClientId, selectClient, withClient } = useClientContext();
  const [filter, setFilter] = useState("");
  const [query] = useDebouncedValue(filter.trim(), FILTER_DEBOUNCE_MS);
  // Spec: clients sort by the first column by default.
  const [sort, setSort] = useState<SortState<ClientSortField>>({ field: "client_no", descending: false });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<ClientRecord | null>(null);
  const remove = useDeleteClient();

  const list = useClientList({
    query,
    limit: pageSize,
    offset: (page - 1) * pageSize,
    ordering: orderingParam(sort),
  });
  const total = list.data?.count ?? 0;

  const onSort = (field: ClientSortField) => {
    setSort((current) => nextSort(current, field));
    setPage(1);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    remove.mutate(target.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `${target.client_name} was deleted.` });
        setDeleting(null);
        if (selectedClientId === target.id) selectClient(null);
        // The last row of the last page: step back a page.
        if (page > 1 && list.data?.results.length === 1) setPage(page - 1);
      },
    });
  };

  const customersOf = (client: ClientRecord) => `/customers/manage?${CLIENT_ID_PARAM}=${String(client.id)}`;

  return (
    <>
      <PageHeader
        title="Clients"
        description="Every client business you bill for. Choose one to work on its customers."
        actions={<Button onClick={() => setAdding(true)}>Add Client</Button>}
      />
      <Paper withBorder p="md" radius="sm">
        <Group justify="space-between" mb="sm" gap="sm">
          <TextInput
            aria-label="Filter clients"
            placeholder="Filter by name or number"
            w={{ base: "100%", sm: 320 }}
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value);
              setPage(1);
            }}
          />
          <RefreshButton
            label="Refresh clients"
            size="lg"
            loading={list.isFetching}
            onClick={() => void list.refetch()}
          />
        </Group>

        {list.isError ? (
          <Alert color="red" title="The clients could not be loaded">
            {describeApiError(list.error)}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label="Clients">
              <Table.Thead>
                <Table.Tr>
                  <SortableTh field="client_no" sort={sort} onSort={onSort} w={110}>
                    Client #
                  </SortableTh>
                  <SortableTh field="client_name" sort={sort} onSort={onSort}>
                    Name
                  </SortableTh>
                  <SortableTh field="city" sort={sort} onSort={onSort}>
                    City
                  </SortableTh>
                  <SortableTh field="state" sort={sort} onSort={onSort} w={90}>
                    State
                  </SortableTh>
                  <SortableTh field="status_code" sort={sort} onSort={onSort} w={170}>
                    Status
                  </SortableTh>
                  <SortableTh field="normal_cycle" sort={sort} onSort={onSort} w={120}>
                    Cycle day
                  </SortableTh>
                  <Table.Th ta="right" w={170}>
                    Actions
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending ? (
                  <LoadingRows columns={7} />
                ) : list.data.results.length === 0 ? (
                  <EmptyRow columns={7} look="roomy">
                    {query ? `No clients match “${query}”.` : "No clients yet. Add the first one."}
                  </EmptyRow>
                ) : (
                  list.data.results.map((client) => (
                    <Table.Tr key={client.id}>
                      <Table.Td style={{ fontVariantNumeric: "tabular-nums" }}>{client.client_no}</Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={customersOf(client)} fw={500}>
                          {client.client_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{client.city || "—"}</Table.Td>
                      <Table.Td>{client.state || "—"}</Table.Td>
                      <Table.Td>
                        <StatusBadge code={client.status_code} />
                      </Table.Td>
                      <Table.Td>{client.normal_cycle}</Table.Td>
                      <Table.Td>
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          <EditDeleteButtons
                            subject={client.client_name}
                            onEdit={() => void navigate(withClient(`/clients/${String(client.id)}`))}
                            onDelete={() => setDeleting(client)}
                          />
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager
          total={total}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
          noun={{ one: "client" }}
        />
      </Paper>

      <AddClientDialog
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(client) => {
          setAdding(false);
          notifications.show({
            color: "teal",
            message: `${client.client_name} was added as client ${String(client.client_no)}.`,
          });
          void navigate(withClient(`/clients/${String(client.id)}`));
        }}
      />

      <DeleteClientDialog
        client={deleting}
        loading={remove.isPending}
        error={remove.error}
        onConfirm={confirmDelete}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onOpenClient={(client) => void navigate(withClient(`/clients/${String(client.id)}`))}
      />
    </>
  );
}

function StatusBadge({ code }: { code: string }) {
  const label = CLIENT_STATUS_LABELS[code as ClientStatusCode] ?? code;
  const color =
    code === "A" ? "teal" : code === "D" || code === "I" ? "gray" : code === "P" ? "yellow" : "blue";
  return (
    <Badge variant="light" color={color} tt="none">
      {code} · {label}
    </Badge>
  );
}
