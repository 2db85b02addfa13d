import { DOCUMENT_BALANCE_FILTERS, DOCUMENT_TYPES, INVOICE_STATUSES } from "@cyclebill/domain";
import { Alert, Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState, type FormEvent, type ReactNode } from "react";
import { apiFetch } from "../../api/api-client";
import { customerLabel, type CustomerMatch } from "../customers/CustomerSelect";
import { TypeaheadSelect, type TypeaheadPage } from "../shell/TypeaheadSelect";
import {
  BALANCE_LABELS,
  DOCUMENT_TYPE_LABELS,
  STATUS_LABELS,
  isDocumentType,
  useCustomerName,
  type DocumentFilter,
} from "./documents-api";

const DATE_ORDER_MESSAGE = "The start date must be on or before the end date.";
const ALL = "all";

export type PickedCustomer = { id: number; label: string };

type Draft = { customer: { id: number; label: string | null } | null; startDate: string; endDate: string };

export type DocumentFiltersProps = {
  clientId: number;
  /** The applied filters (from the address). */
  filter: DocumentFilter;
  /** The label of the customer last picked here, so it shows at once after a search. */
  picked: PickedCustomer | null;
  onPick: (customer: PickedCustomer | null) => void;
  onApply: (filter: DocumentFilter) => void;
  searching: boolean;
  /** The combine button, beside Search. */
  actions: ReactNode;
};

/**
 * Customer (optional), dates and Search; document type, status and balance apply at once. The
 * form is keyed by the applied filter, so a link or back/forward resets it.
 */
export function DocumentFilters({
  clientId,
  filter,
  picked,
  onPick,
  onApply,
  searching,
  actions,
}: DocumentFiltersProps) {
  const [draft, setDraft] = useState<Draft>(() => ({
    customer:
      filter.customerId === null
        ? null
        : { id: filter.customerId, label: picked?.id === filter.customerId ? picked.label : null },
    startDate: filter.startDate,
    endDate: filter.endDate,
  }));
  const [formError, setFormError] = useState<string | null>(null);

  // The label of a customer that came from the address.
  const needsName = draft.customer !== null && draft.customer.label === null ? draft.customer.id : null;
  const named = useCustomerName(clientId, needsName);
  const customerText =
    draft.customer === null
      ? null
      : (draft.customer.label ??
        (named.data
          ? customerLabel(named.data)
          : named.isError
            ? `Customer #${String(draft.customer.id)}`
            : ""));

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft.startDate && draft.endDate && draft.startDate > draft.endDate) {
      setFormError(DATE_ORDER_MESSAGE);
      return;
    }
    setFormError(null);
    onApply({
      ...filter,
      customerId: draft.customer?.id ?? null,
      startDate: draft.startDate,
      endDate: draft.endDate,
    });
  };

  const searchCustomers = (query: string, signal: AbortSignal) =>
    apiFetch<TypeaheadPage<CustomerMatch>>("/typeahead/customers/", {
      query: { client_id: clientId, query },
      signal,
    });

  return (
    <form onSubmit={search} noValidate aria-label="Search invoices and statements">
      <Stack gap="sm">
        <Group align="flex-end" gap="md" wrap="wrap">
          <div style={{ width: 300, maxWidth: "100%" }}>
            <TypeaheadSelect<CustomerMatch>
              label="Customer"
              showLabel
              placeholder="Every customer"
              selectedLabel={customerText}
              queryKey={["customers", "typeahead", clientId]}
              search={searchCustomers}
              getId={(match) => match.id}
              renderOption={(match) => <Text size="sm">{customerLabel(match)}</Text>}
              onSelect={(match) => {
                setFormError(null);
                const next = match ? { id: match.id, label: customerLabel(match) } : null;
                onPick(next);
                setDraft((current) => ({ ...current, customer: next }));
              }}
            />
          </div>
          <TextInput
            type="date"
            label="Start date"
            w={160}
            value={draft.startDate}
            max={draft.endDate || undefined}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setDraft((current) => ({ ...current, startDate: value }));
            }}
          />
          <TextInput
            type="date"
            label="End date"
            w={160}
            value={draft.endDate}
            min={draft.startDate || undefined}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setDraft((current) => ({ ...current, endDate: value }));
            }}
          />
          <Group gap="sm">
            <Button type="submit" loading={searching}>
              Search
            </Button>
            {actions}
          </Group>
        </Group>
        <Group align="flex-end" gap="lg" wrap="wrap">
          <Stack gap={4} role="group" aria-labelledby="document-type-label">
            <Text size="sm" fw={500} id="document-type-label">
              Document type
            </Text>
            <SegmentedControl
              aria-labelledby="document-type-label"
              value={filter.documentType}
              onChange={(value) => {
                if (isDocumentType(value)) onApply({ ...filter, documentType: value });
              }}
              data={DOCUMENT_TYPES.map((type) => ({ value: type, label: DOCUMENT_TYPE_LABELS[type] }))}
            />
          </Stack>
          <Select
            label="Status"
            w={150}
            allowDeselect={false}
            value={filter.status ?? ALL}
            onChange={(value) => {
              const status = INVOICE_STATUSES.find((candidate) => candidate === value) ?? null;
              onApply({ ...filter, status });
            }}
            data={[
              { value: ALL, label: "Any status" },
              ...INVOICE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
            ]}
          />
          <Stack gap={4} role="group" aria-labelledby="document-balance-label">
            <Text size="sm" fw={500} id="document-balance-label">
              Balance
            </Text>
            <SegmentedControl
              aria-labelledby="document-balance-label"
              value={filter.balance ?? ALL}
              onChange={(value) => {
                const balance = DOCUMENT_BALANCE_FILTERS.find((candidate) => candidate === value) ?? null;
                onApply({ ...filter, balance });
              }}
              data={[
                { value: ALL, label: "Any" },
                ...DOCUMENT_BALANCE_FILTERS.map((balance) => ({
                  value: balance,
                  label: BALANCE_LABELS[balance],
                })),
              ]}
            />
          </Stack>
        </Group>
        {formError ? (
          <Alert color="red" variant="light" py="xs">
            {formError}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
