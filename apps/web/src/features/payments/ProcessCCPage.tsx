import { addAmounts, CREDIT_CARD_CUSTOMERS_PAGE_SIZE, type CreditCardCustomer } from "@cyclebill/domain";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { describeApiError } from "../../api/api-client";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { nextSort, orderingParam, type SortState } from "../../lib/paging";
import { parseClientId, useClientContext } from "../../shared/client-context";
import { NoClientPage } from "../clients/ClientRequired";
import { editorPath } from "../customers/customer-links";
import { EmptyRow, LoadingRows } from "../shell/LoadingRows";
import { PageHeader } from "../shell/PageHeader";
import { SortableTh } from "../shell/SortableTh";
import { TablePager } from "../shell/TablePager";
import { AutopayDeclines } from "./AutopayDeclines";
import { ExpiringCards } from "./ExpiringCards";
import { GatewayReturns } from "../gateway-events/GatewayReturns";
import { CardRunResults } from "./CardRunResults";
import { NeedsChecking } from "./NeedsChecking";
import { storedMethodLabel } from "./payment-form";
import { startBulkPayments, useCreditCardCustomers, type CreditCardSortField } from "./payments-api";
import { PageCheckbox } from "../shell/PageCheckbox";

/** Spec §9: make payments is debounced 300 ms; the filter waits for a pause in typing. */
export const MAKE_PAYMENTS_DEBOUNCE_MS = 300;
const FILTER_DEBOUNCE_MS = 500;
const TITLE = "Process CC Payments";

/** /customers/processCC: customers with a card or bank account on file; charge a selection. */
export function ProcessCCPage() {
  const { clientId } = useClientContext();
  if (clientId === null) {
    return <NoClientPage header={<PageHeader title={TITLE} />} what="customers" />;
  }
  return <ProcessCC key={clientId} clientId={clientId} />;
}

function ProcessCC({ clientId }: { clientId: number }) {
  const { withClient } = useClientContext();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState("");
  const [query, setQuery] = useState("");
  const [pendingOnly, setPendingOnly] = useState(false);
  const [sort, setSort] = useState<SortState<CreditCardSortField>>({
    field: "customer_no",
    descending: false,
  });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<number, CreditCardCustomer>>(() => new Map());
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  // The card run being shown lives in the address (?run=), so a reload mid-run keeps its progress.
  const [searchParams, setSearchParams] = useSearchParams();
  const runId = parseClientId(searchParams.get("run"));
  const setRunId = (id: number | null) => {
    const next = new URLSearchParams(searchParams);
    if (id === null) next.delete("run");
    else next.set("run", String(id));
    setSearchParams(next, { replace: id === null });
  };
  const lastClick = useRef(0);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      setQuery(filter.trim());
      setPage(1);
    }, FILTER_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [filter]);

  const list = useCreditCardCustomers(clientId, {
    page,
    limit: CREDIT_CARD_CUSTOMERS_PAGE_SIZE,
    ordering: orderingParam(sort),
    query,
    hasPendingCharges: pendingOnly,
  });
  const rows = list.data?.results ?? [];
  const total = list.data?.count ?? 0;
  const chosen = [...selected.values()];
  const chosenTotal = chosen.reduce((sum, row) => addAmounts(sum, row.total_balance), "0.00");
  const pageSelected = rows.filter((row) => selected.has(row.id)).length;

  const toggle = (row: CreditCardCustomer, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(row.id, row);
      else next.delete(row.id);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });

  const onMakePayments = () => {
    // Debounced 300 ms: a double click opens one confirmation.
    if (Date.now() - lastClick.current < MAKE_PAYMENTS_DEBOUNCE_MS) return;
    lastClick.current = Date.now();
    setStartError(null);
    setConfirming(true);
  };

  const start = async () => {
    if (starting) return;
    setStarting(true);
    try {
      const started = await startBulkPayments(clientId, { ids: chosen.map((row) => row.id) });
      setRunId(started.job.id);
      setSelected(new Map());
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ["payments", "credit-card-customers", clientId] });
    } catch (error) {
      setStartError(describeApiError(error));
    } finally {
      setStarting(false);
    }
  };

  const refreshList = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ["payments", "credit-card-customers", clientId] });
  }, [queryClient, clientId]);

  const onSort = (field: CreditCardSortField) => {
    setSort((current) => nextSort(current, field));
    setPage(1);
  };
  const th = (field: CreditCardSortField, label: string, align?: "right") => (
    <SortableTh field={field} sort={sort} onSort={onSort} align={align}>
      {label}
    </SortableTh>
  );

  return (
    <Stack gap="md">
      <PageHeader
        title={TITLE}
        description="Customers with a card or bank account on file. Select some or all and charge their balances."
        actions={
          <Button onClick={onMakePayments} disabled={chosen.length === 0}>
            Make Payments{chosen.length > 0 ? ` (${chosen.length})` : ""}
          </Button>
        }
      />

      <AutopayDeclines clientId={clientId} />
      <NeedsChecking clientId={clientId} />
      <ExpiringCards clientId={clientId} />
      <GatewayReturns clientId={clientId} />

      {runId !== null ? (
        <Paper withBorder p="md" radius="md">
          <Group justify="space-between" mb="sm">
            <Text fw={600}>Card run {runId}</Text>
            <Button size="xs" variant="default" onClick={() => setRunId(null)}>
              Close results
            </Button>
          </Group>
          <CardRunResults clientId={clientId} runId={runId} onFinished={refreshList} />
        </Paper>
      ) : null}

      <Group gap="md" align="flex-end">
        <TextInput
          label="Filter"
          placeholder="Name or customer number"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              setQuery(filter.trim());
              setPage(1);
            }
          }}
          w={280}
        />
        <Switch
          label="Only customers with pending charges"
          checked={pendingOnly}
          onChange={(event) => {
            setPendingOnly(event.currentTarget.checked);
            setPage(1);
          }}
          mb={8}
        />
        <Text size="sm" c="dimmed" mb={8} ml="auto" data-testid="selection-summary">
          {chosen.length} selected · {formatAmount(chosenTotal)}
        </Text>
      </Group>

      {list.isError ? (
        <Alert color="red" title="The customers could not be loaded">
          {describeApiError(list.error)}
        </Alert>
      ) : null}

      <Table.ScrollContainer minWidth={860}>
        <Table striped highlightOnHover aria-label="Customers with a payment method on file">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <PageCheckbox
                  label="Select all on this page"
                  selected={pageSelected}
                  total={rows.length}
                  onChange={togglePage}
                />
              </Table.Th>
              {th("customer_no", "No.")}
              {th("customer_name", "Customer")}
              <Table.Th>Method on file</Table.Th>
              {th("total_balance", "Balance", "right")}
              {th("last_pay_date", "Last payment")}
              <Table.Th>Autopay</Table.Th>
              <Table.Th>Last message</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending ? <LoadingRows columns={8} /> : null}
            {rows.map((row) => (
              <Table.Tr key={row.id} bg={selected.has(row.id) ? "var(--mantine-color-blue-0)" : undefined}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${row.customer_name}`}
                    checked={selected.has(row.id)}
                    onChange={(event) => toggle(row, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>{row.customer_no}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={withClient(editorPath(row.id))} size="sm">
                    {row.customer_name.slice(0, 30) || `Customer ${row.customer_no}`}
                  </Anchor>
                </Table.Td>
                <Table.Td>{storedMethodLabel(row.stored_method)}</Table.Td>
                <Table.Td ta="right">{formatAmount(row.total_balance)}</Table.Td>
                <Table.Td>{row.last_pay_date ? formatIsoDate(row.last_pay_date) : "—"}</Table.Td>
                <Table.Td>
                  {row.autopay_flag ? (
                    <Badge size="sm" variant="light">
                      On
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={1}>
                    {row.bluepay_transaction_message}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
            {list.isSuccess && rows.length === 0 ? (
              <EmptyRow columns={8} look="plain">
                {query || pendingOnly
                  ? "No customer with a payment method on file matches."
                  : "No customer has a card or bank account on file yet. Store one from a customer's page."}
              </EmptyRow>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        total={total}
        page={page}
        pageSize={CREDIT_CARD_CUSTOMERS_PAGE_SIZE}
        onPageChange={setPage}
        noun={{ one: "customer" }}
      />

      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Make payments" centered>
        <Stack gap="md">
          <Text size="sm">
            Charge {chosen.length} customer{chosen.length === 1 ? "" : "s"} their balance on the stored card
            or bank account, {formatAmount(chosenTotal)} in all? Customers whose balance is zero or a credit
            are skipped.
          </Text>
          {startError ? (
            <Alert color="red" title="The payments were not started">
              {startError}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={starting}>
              Cancel
            </Button>
            <Button onClick={() => void start()} loading={starting} data-autofocus>
              Charge {formatAmount(chosenTotal)}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
