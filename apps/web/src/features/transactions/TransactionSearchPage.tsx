import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { apiFetch } from "../../api/api-client";
import { useDownload } from "../../api/download";
import { useClientContext } from "../../shared/client-context";
import { NoClientPage } from "../clients/ClientRequired";
import { useSelectedCustomer } from "../customers/selected-customer";
import { DownloadIcon } from "../shell/icons";
import { PageHeader } from "../shell/PageHeader";
import { TablePager } from "../shell/TablePager";
import { AddTransactionRow } from "./AddTransactionRow";
import { MassUpdatePanel, useMassUpdateSelection } from "./MassUpdatePanel";
import { CodePicker } from "../../shared/CodePicker";
import { CODE_TYPE_OPTIONS } from "../../shared/codes";
import { CustomerPicker, customerText, type PickedCode, type PickedCustomer } from "./pickers";
import { TransactionTable } from "./TransactionTable";
import { EMPTY_TALLY, addToTally, createdMessage, describeSplit, type Tally } from "./tally";
import { SessionNotes } from "./SessionNotes";
import {
  EMPTY_FILTERS,
  SEARCH_PAGE_SIZE,
  useRefreshLedger,
  useTransactionPage,
  useTransactionTotals,
  type CustomerMatch,
  type TransactionFilters,
} from "./transactions-api";
import { RefreshButton } from "../shell/RefreshButton";
import { textBinder } from "../../lib/bind-text";
import { countOf } from "../../lib/plural";

type FilterState = {
  customer: PickedCustomer | null;
  code: PickedCode | null;
  codeType: string | null;
  createdFrom: string;
  createdTo: string;
  serviceFrom: string;
  serviceTo: string;
  historical: boolean;
};

const BLANK: FilterState = {
  customer: null,
  code: null,
  codeType: null,
  createdFrom: "",
  createdTo: "",
  serviceFrom: "",
  serviceTo: "",
  historical: true,
};

function toFilters(state: FilterState, customerId: number | null): TransactionFilters {
  return {
    ...EMPTY_FILTERS,
    customerId: state.customer?.id ?? customerId,
    codeId: state.code?.id ?? null,
    codeType: state.codeType,
    createdFrom: state.createdFrom || null,
    createdTo: state.createdTo || null,
    serviceFrom: state.serviceFrom || null,
    serviceTo: state.serviceTo || null,
    historical: state.historical,
  };
}

/** /transactions/search: filters, totals, the table 50 per page, add and mass update modes. */
export function TransactionSearchPage() {
  const { clientId } = useClientContext();
  const [params] = useSearchParams();
  const prefillCustomerId = Number(params.get("customer_id")) || null;
  // customer_id from the address filters until the user picks or clears the customer.
  const [addressCustomer, setAddressCustomer] = useState<number | null>(prefillCustomerId);
  const [page, setPage] = useState(1);
  // The customer kept selected in the top bar filters the list and pre-fills the add row; a
  // customer_id in the address wins on arrival. Choosing or clearing it in the top bar later
  // replaces the filter.
  const selected = useSelectedCustomer(clientId).customer;
  const selectedPick: PickedCustomer | null = selected
    ? { id: selected.id, label: customerText(selected) }
    : null;
  const [state, setState] = useState<FilterState>(() => ({
    ...BLANK,
    customer: prefillCustomerId === null ? selectedPick : null,
    codeType: params.get("transaction_code_type") === "payment" ? "payment" : null,
  }));
  const [followedId, setFollowedId] = useState(selected?.id ?? null);
  if ((selected?.id ?? null) !== followedId) {
    setFollowedId(selected?.id ?? null);
    setAddressCustomer(null);
    setState((current) => ({ ...current, customer: selectedPick }));
    setPage(1);
  }
  const prefill = useQuery({
    queryKey: ["customers", clientId, addressCustomer, "label"],
    queryFn: ({ signal }) =>
      apiFetch<CustomerMatch>(`/customers/${addressCustomer}/`, { query: { client_id: clientId }, signal }),
    enabled: addressCustomer !== null && clientId !== null,
  });
  const customerValue =
    state.customer ??
    (addressCustomer !== null && prefill.data
      ? { id: addressCustomer, label: customerText(prefill.data) }
      : null);

  const [filters] = useDebouncedValue(toFilters(state, addressCustomer), 150);
  const [showQty, setShowQty] = useState(false);
  const [adding, setAdding] = useState(false);
  const [tally, setTally] = useState<Tally>(EMPTY_TALLY);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const mass = useMassUpdateSelection();
  const refresh = useRefreshLedger();
  const download = useDownload();

  const list = useTransactionPage(clientId, filters, page, SEARCH_PAGE_SIZE);
  const totals = useTransactionTotals(clientId, filters);

  const patch = (values: Partial<FilterState>) => {
    setState((current) => ({ ...current, ...values }));
    setPage(1);
  };
  const bind = textBinder(state, patch);

  const finishAdding = (message: boolean) => {
    if (message) {
      setDoneMessage(createdMessage(tally));
    }
    setTally(EMPTY_TALLY);
    setAdding(false);
  };

  const downloadCsv = () => {
    if (clientId === null) return;
    const part = (value: string | number | null) => (value === null || value === "" ? "0" : String(value));
    const path = [
      "/csv/customers/transactions",
      clientId,
      part(filters.customerId),
      part(filters.codeId),
      part(filters.codeType),
      part(filters.createdFrom),
      part(filters.createdTo),
      part(filters.serviceFrom),
      part(filters.serviceTo),
    ].join("/");
    download.mutate({ path, fallbackName: "transactions.csv" });
  };

  if (clientId === null) {
    return (
      <NoClientPage
        header={<PageHeader title="Search Transactions" />}
        what="transactions"
        adminNotice="Choose a client to see its transactions."
      />
    );
  }

  const rows = list.data?.results ?? [];
  const count = list.data?.count ?? 0;
  return (
    <Stack gap="md">
      <PageHeader
        title="Search Transactions"
        actions={
          <>
            <Button
              onClick={() => {
                setDoneMessage(null);
                mass.close();
                setAdding(true);
              }}
              disabled={adding}
            >
              Add Transaction
            </Button>
            <Button
              variant="light"
              onClick={() => {
                finishAdding(false);
                mass.open();
              }}
              disabled={mass.active}
            >
              Mass Edit
            </Button>
            <Button
              variant="default"
              leftSection={<DownloadIcon />}
              onClick={downloadCsv}
              loading={download.isPending}
            >
              Download Transactions
            </Button>
          </>
        }
      />
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <CustomerPicker
            clientId={clientId}
            label="Filter by customer"
            showLabel
            value={customerValue}
            onChange={(picked) => {
              setAddressCustomer(null);
              patch({ customer: picked });
            }}
          />
          <CodePicker
            clientId={clientId}
            label="Code"
            showLabel
            width={180}
            value={state.code}
            onChange={(code) => patch({ code })}
          />
          <Select
            label="Code type"
            placeholder="Any type"
            clearable
            data={CODE_TYPE_OPTIONS}
            value={state.codeType}
            onChange={(codeType) => patch({ codeType })}
          />
          <Stack gap={6} justify="flex-end">
            <Switch
              label="Show Qty and Units"
              checked={showQty}
              onChange={(event) => setShowQty(event.currentTarget.checked)}
            />
            <Switch
              label="Include billed (historical)"
              checked={state.historical}
              onChange={(event) => patch({ historical: event.currentTarget.checked })}
            />
          </Stack>
          <TextInput type="date" label="Entered from" {...bind("createdFrom")} />
          <TextInput type="date" label="Entered to" {...bind("createdTo")} />
          <TextInput type="date" label="Service from" {...bind("serviceFrom")} />
          <TextInput type="date" label="Service to" {...bind("serviceTo")} />
        </SimpleGrid>
        <Group justify="space-between" mt="sm">
          <Text size="sm" aria-label="Totals" aria-live="polite">
            {totals.data
              ? `${countOf(totals.data.count, "transaction")} · ${describeSplit(totals.data.chargesAmount, totals.data.creditsAmount, totals.data.netAmount)}`
              : "Totals loading…"}
          </Text>
          <Group gap="xs">
            <RefreshButton
              label="Refresh transactions"
              loading={list.isFetching || totals.isFetching}
              onClick={() => void refresh()}
            />
            <Button
              variant="subtle"
              size="xs"
              onClick={() => {
                setAddressCustomer(null);
                setState(BLANK);
                setPage(1);
              }}
            >
              Clear filters
            </Button>
          </Group>
        </Group>
      </Paper>

      <SessionNotes
        message={doneMessage}
        onDismiss={() => setDoneMessage(null)}
        adding={adding}
        tally={tally}
      />
      {mass.active ? <MassUpdatePanel clientId={clientId} mass={mass} /> : null}

      <TransactionTable
        label="Transactions"
        clientId={clientId}
        rows={rows}
        showCustomer
        showQty={showQty}
        loading={list.isPending}
        selection={mass.active ? mass.selection : undefined}
        addRow={
          adding ? (
            <AddTransactionRow
              clientId={clientId}
              showCustomer
              showQty={showQty}
              // The customer the list is filtered by (the top bar's, the address's or one picked here).
              defaultCustomer={customerValue}
              onCreated={(created) => {
                setTally((current) => addToTally(current, created));
                void refresh();
              }}
              onSaved={() => {
                // Save leaves add mode and clears the filters (the selected customer stays).
                finishAdding(false);
                setAddressCustomer(null);
                setState({ ...BLANK, customer: selectedPick });
                setPage(1);
              }}
              onDone={() => finishAdding(true)}
            />
          ) : null
        }
      />
      <TablePager
        total={count}
        page={page}
        pageSize={SEARCH_PAGE_SIZE}
        onPageChange={setPage}
        noun={{ one: "transaction" }}
      />
    </Stack>
  );
}
