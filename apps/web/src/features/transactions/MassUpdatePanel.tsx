import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { makeInvoiceRefusal } from "@cyclebill/domain";
import { apiFetch, describeApiError } from "../../api/api-client";
import { useClientContext } from "../../shared/client-context";
import { unitOptions, useUnitsOfMeasure } from "../codes/units-of-measure";
import { CodePicker } from "../../shared/CodePicker";
import { CustomerPicker, type PickedCode, type PickedCustomer } from "./pickers";
import { useRefreshLedger, type Transaction } from "./transactions-api";
import { textBinder } from "../../lib/bind-text";
import { countOf } from "../../lib/plural";

export const MAKE_INVOICE_DEBOUNCE_MS = 2500;

export type MassUpdate = ReturnType<typeof useMassUpdateSelection>;

/** Mass update mode and its selected ids; a change of route leaves the mode. */
export function useMassUpdateSelection() {
  const [active, setActive] = useState(false);
  // The selected entries themselves (not only their ids), so the panel can say what they allow
  // even when they were ticked on another page.
  const [rows, setRows] = useState<ReadonlyMap<number, Transaction>>(new Map());
  const location = useLocation();
  const firstKey = useRef(location.key);
  useEffect(() => {
    if (location.key !== firstKey.current) {
      firstKey.current = location.key;
      setActive(false);
      setRows(new Map());
    }
  }, [location.key]);
  const ids: ReadonlySet<number> = new Set(rows.keys());

  return {
    active,
    ids,
    rows: [...rows.values()],
    open: () => setActive(true),
    close: () => {
      setActive(false);
      setRows(new Map());
    },
    clear: () => setRows(new Map()),
    selection: {
      ids,
      onToggle: (row: Transaction) =>
        setRows((current) => {
          const next = new Map(current);
          if (next.has(row.id)) next.delete(row.id);
          else next.set(row.id, row);
          return next;
        }),
      onToggleAll: (pageRows: readonly Transaction[]) =>
        setRows((current) => {
          const all = pageRows.every((row) => current.has(row.id));
          const next = new Map(current);
          for (const row of pageRows) {
            if (all) next.delete(row.id);
            else next.set(row.id, row);
          }
          return next;
        }),
    },
  };
}

type Changes = {
  customer: PickedCustomer | null;
  code: PickedCode | null;
  description: string;
  serviceDate: string;
  rate: string;
  quantity: string;
  uom: string;
};
const NO_CHANGES: Changes = {
  customer: null,
  code: null,
  description: "",
  serviceDate: "",
  rate: "",
  quantity: "",
  uom: "",
};

/** Mass update mode (spec section 2): change fields of the selected rows or make an invoice of them. */
export function MassUpdatePanel({ clientId, mass }: { clientId: number; mass: MassUpdate }) {
  const { withClient } = useClientContext();
  const navigate = useNavigate();
  const units = useUnitsOfMeasure();
  const refresh = useRefreshLedger();
  const [changes, setChanges] = useState<Changes>(NO_CHANGES);
  const [message, setMessage] = useState<{ color: string; text: string } | null>(null);
  const lastInvoiceClick = useRef(0);
  const count = mass.ids.size;

  const save = useMutation({
    mutationFn: () =>
      apiFetch<{ count: number; results: Transaction[] }>("/transactions/mass_update/", {
        method: "POST",
        query: { client_id: clientId },
        handles: [400],
        body: {
          ids: [...mass.ids],
          changes: {
            customer: changes.customer?.id,
            code: changes.code?.id,
            description: changes.description.trim() || undefined,
            serviceDate: changes.serviceDate || undefined,
            rate: changes.rate.trim() || undefined,
            quantity: changes.quantity.trim() || undefined,
            uom: changes.uom ? Number(changes.uom) : undefined,
          },
        },
      }),
    onSuccess: async (result) => {
      setMessage({
        color: "teal",
        text: `${countOf(result.count, "transaction")} updated. The selection was cleared.`,
      });
      // Saved entries leave the selection: a Make Invoice from Selected next must not take them unseen.
      mass.clear();
      setChanges(NO_CHANGES);
      await refresh();
    },
    onError: (error) => setMessage({ color: "red", text: describeApiError(error) }),
  });

  const makeInvoice = useMutation({
    mutationFn: () =>
      apiFetch<{ id: number; invoice_num: number }>("/transactions/make_invoice/", {
        method: "POST",
        query: { client_id: clientId },
        handles: [400],
        body: { ids: [...mass.ids] },
      }),
    onSuccess: async (invoice) => {
      await refresh();
      void navigate(withClient(`/transactions/invoice/edit/${invoice.id}`));
    },
    // Invoice creation error from selected transactions: the server's text in an alert.
    onError: (error) => setMessage({ color: "red", text: describeApiError(error) }),
  });

  const onMakeInvoice = () => {
    // Debounced: repeated clicks within 2500 ms make one invoice.
    const now = Date.now();
    if (now - lastInvoiceClick.current < MAKE_INVOICE_DEBOUNCE_MS || makeInvoice.isPending) return;
    lastInvoiceClick.current = now;
    setMessage(null);
    makeInvoice.mutate();
  };

  const patch = (values: Partial<Changes>) => setChanges((current) => ({ ...current, ...values }));
  const bind = textBinder(changes, patch);
  // Make Invoice from Selected is offered only when the server would accept it; otherwise why not.
  const invoiceRefusal = count === 0 ? null : makeInvoiceRefusal(mass.rows);
  return (
    <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Change a field for {count} selected transaction{count === 1 ? "" : "s"}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <CustomerPicker
            clientId={clientId}
            label="New customer"
            showLabel
            value={changes.customer}
            onChange={(customer) => patch({ customer })}
          />
          <CodePicker
            clientId={clientId}
            label="New code"
            showLabel
            width={180}
            value={changes.code}
            onChange={(code) => patch({ code })}
          />
          <TextInput label="New description" {...bind("description")} />
          <TextInput type="date" label="New service date" {...bind("serviceDate")} />
          <TextInput label="New rate" inputMode="decimal" {...bind("rate")} />
          <TextInput label="New quantity" inputMode="decimal" {...bind("quantity")} />
          <NativeSelect
            label="New units"
            {...bind("uom")}
            data={[{ value: "", label: "Unchanged" }, ...unitOptions(units)]}
          />
        </SimpleGrid>
        {message ? (
          <Alert color={message.color} role="alert" withCloseButton onClose={() => setMessage(null)}>
            <Text size="sm">{message.text}</Text>
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={count === 0}>
            Save Changes
          </Button>
          <Button
            variant="light"
            onClick={onMakeInvoice}
            loading={makeInvoice.isPending}
            disabled={count === 0 || invoiceRefusal !== null}
            aria-describedby={invoiceRefusal ? "make-invoice-refusal" : undefined}
          >
            Make Invoice from Selected
          </Button>
          <Button variant="default" onClick={mass.close}>
            Close Mass Edit
          </Button>
        </Group>
        {invoiceRefusal ? (
          <Text size="sm" id="make-invoice-refusal" role="status">
            {invoiceRefusal}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
