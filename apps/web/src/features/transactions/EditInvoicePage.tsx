import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useDownload } from "../../api/download";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { useClientContext } from "../../shared/client-context";
import { NoClientPage } from "../clients/ClientRequired";
import { ConfirmDeleteDialog } from "../shell/ConfirmDeleteDialog";
import { DownloadIcon } from "../shell/icons";
import { PageHeader } from "../shell/PageHeader";
import { TablePager } from "../shell/TablePager";
import { AddTransactionRow } from "./AddTransactionRow";
import type { InvoiceStatus } from "@cyclebill/domain";
import { STATUS_LABELS, useInvoice, useInvoiceCommand } from "./invoice-api";
import { TransactionTable } from "./TransactionTable";
import { EMPTY_TALLY, addToTally, createdMessage, type Tally } from "./tally";
import { SessionNotes } from "./SessionNotes";
import { EMPTY_FILTERS, useRefreshLedger, useTransactionPage } from "./transactions-api";

// Spec section 2: the shared table pages by 14 (options 5, 10 and 15).
const INVOICE_PAGE_SIZE = 14;
const INVOICE_PAGE_SIZES = [5, 10, 14, 15] as const;

const STATUS_COLORS: Record<InvoiceStatus, string> = { open: "teal", closed: "blue", processed: "gray" };

/** /transactions/invoice/edit/{id}: the invoice's lines and the buttons its status allows (spec section 4). */
export function EditInvoicePage() {
  const { invoiceId } = useParams();
  const id = Number(invoiceId);
  const { clientId, withClient } = useClientContext();
  const navigate = useNavigate();
  const invoice = useInvoice(clientId, id);
  const command = useInvoiceCommand(clientId, id);
  const refresh = useRefreshLedger();
  const download = useDownload();
  const [showQty, setShowQty] = useState(false);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(INVOICE_PAGE_SIZE);
  // null until the user opens or closes the add row: an open invoice starts in Add Transaction mode.
  const [addingChoice, setAdding] = useState<boolean | null>(null);
  const [tally, setTally] = useState<Tally>(EMPTY_TALLY);
  const [message, setMessage] = useState<string | null>(null);
  const [editingDate, setEditingDate] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmSeparate, setConfirmSeparate] = useState(false);

  const status = invoice.data?.invoice_status;
  const isOpen = status === "open";
  const adding = isOpen && (addingChoice ?? true);

  const lines = useTransactionPage(
    clientId,
    { ...EMPTY_FILTERS, invoice: id },
    page,
    pageSize,
    Number.isInteger(id) && id > 0,
  );

  if (clientId === null) {
    return (
      <NoClientPage
        header={<PageHeader title="Edit Invoice" />}
        what="invoices"
        adminNotice="Choose a client to see its invoices."
      />
    );
  }
  if (invoice.isError) {
    return (
      <Stack>
        <PageHeader title="Edit Invoice" />
        <Alert color="red">This invoice does not exist.</Alert>
      </Stack>
    );
  }
  const data = invoice.data;
  if (!data) return <Text c="dimmed">Loading invoice…</Text>;

  const number = data.invoice_num === 0 ? 1 : data.invoice_num;
  const finishAdding = (withMessage: boolean) => {
    if (withMessage) {
      setMessage(createdMessage(tally));
    }
    setTally(EMPTY_TALLY);
    setAdding(false);
  };
  const run = (kind: "close" | "reopen") =>
    command.mutate(
      { kind },
      {
        onSuccess: () => {
          // Closing returns the table to non-add mode.
          if (kind === "close") finishAdding(false);
          else setAdding(null);
          setMessage(kind === "close" ? `Invoice ${number} closed.` : `Invoice ${number} reopened.`);
        },
      },
    );

  const rows = lines.data?.results ?? [];
  const offered = (action: (typeof data.actions)[number]) => data.actions.includes(action);
  return (
    <Stack gap="md">
      <PageHeader
        title={`Invoice ${number}`}
        description={
          <Group gap="xs" component="span">
            <Badge color={STATUS_COLORS[data.invoice_status]} aria-label="Invoice status">
              {STATUS_LABELS[data.invoice_status]}
            </Badge>
            <Text span size="sm" aria-label="Invoice total">
              Total {formatAmount(data.total)}
            </Text>
          </Group>
        }
        actions={
          // Exactly the actions the server offers on this invoice.
          <>
            {offered("edit") ? (
              <>
                <Button
                  variant="light"
                  onClick={() => setEditingDate(data.invoice_date)}
                  disabled={editingDate !== null}
                >
                  Edit
                </Button>
                {adding ? (
                  <Button variant="default" onClick={() => finishAdding(tally.count > 0)}>
                    Close
                  </Button>
                ) : (
                  <Button
                    onClick={() => {
                      setMessage(null);
                      setAdding(true);
                    }}
                  >
                    Add Transaction
                  </Button>
                )}
              </>
            ) : null}
            {offered("close") ? (
              <Button color="teal" onClick={() => run("close")} loading={command.isPending}>
                Close Invoice
              </Button>
            ) : null}
            {offered("separate") ? (
              <Button variant="default" onClick={() => setConfirmSeparate(true)} disabled={command.isPending}>
                Separate Transactions from Invoice
              </Button>
            ) : null}
            {offered("reopen") ? (
              <>
                <Button onClick={() => run("reopen")} loading={command.isPending}>
                  Open Invoice
                </Button>
                <Button
                  variant="light"
                  onClick={() => void navigate(withClient("/transactions/invoice/add"))}
                >
                  New Invoice
                </Button>
              </>
            ) : null}
            {offered("pdf") ? (
              <Button
                variant="default"
                leftSection={<DownloadIcon />}
                loading={download.isPending}
                onClick={() =>
                  download.mutate({
                    path: `/invoices/${id}/pdf/`,
                    query: { client_id: clientId },
                    fallbackName: `invoice-${number}.pdf`,
                  })
                }
              >
                Get PDF
              </Button>
            ) : null}
            {offered("delete") ? (
              <Button color="red" variant="subtle" onClick={() => setConfirmDelete(true)}>
                Delete Invoice
              </Button>
            ) : null}
          </>
        }
      />
      <Paper withBorder p="md">
        <Group gap="xl" align="flex-end" wrap="wrap">
          <div>
            <Text size="xs" c="dimmed">
              Customer
            </Text>
            <Anchor component={Link} to={withClient(`/customers/edit/${data.customer.id}`)} size="sm">
              {data.customer.customer_no} · {data.customer.customer_name}
            </Anchor>
          </div>
          {editingDate !== null && isOpen ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                command.mutate(
                  { kind: "date", invoiceDate: editingDate },
                  { onSuccess: () => setEditingDate(null) },
                );
              }}
            >
              <Group gap="xs" align="flex-end">
                <TextInput
                  type="date"
                  label="Invoice date"
                  value={editingDate}
                  onChange={(event) => setEditingDate(event.currentTarget.value)}
                />
                <Button type="submit" size="sm" loading={command.isPending}>
                  Save
                </Button>
                <Button size="sm" variant="default" onClick={() => setEditingDate(null)}>
                  Cancel
                </Button>
              </Group>
            </form>
          ) : (
            <div>
              <Text size="xs" c="dimmed">
                Invoice date
              </Text>
              <Text size="sm" aria-label="Invoice date">
                {formatIsoDate(data.invoice_date)}
              </Text>
            </div>
          )}
          <Checkbox
            label="Show Qty and Units"
            checked={showQty}
            onChange={(event) => setShowQty(event.currentTarget.checked)}
          />
        </Group>
      </Paper>
      <SessionNotes message={message} onDismiss={() => setMessage(null)} adding={adding} tally={tally} />
      <TransactionTable
        label="Invoice transactions"
        clientId={clientId}
        currentInvoiceId={data.id}
        rows={rows}
        showCustomer={false}
        showQty={showQty}
        loading={lines.isPending}
        emptyText={isOpen ? "No transactions on this invoice yet." : "No transactions on this invoice."}
        addRow={
          adding && isOpen ? (
            <AddTransactionRow
              clientId={clientId}
              showCustomer={false}
              showQty={showQty}
              fixedCustomer={{
                id: data.customer.id,
                label: `${data.customer.customer_no} · ${data.customer.customer_name}`,
              }}
              invoiceId={id}
              onCreated={(created) => {
                setTally((current) => addToTally(current, created));
                void refresh();
              }}
              onSaved={() => finishAdding(false)}
              onDone={() => finishAdding(true)}
            />
          ) : null
        }
      />
      <TablePager
        total={lines.data?.count ?? 0}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={INVOICE_PAGE_SIZES}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        noun={{ one: "transaction" }}
      />
      <ConfirmDeleteDialog
        opened={confirmSeparate}
        title={`Separate transactions from invoice ${number}`}
        confirmLabel="Separate"
        loading={command.isPending}
        onCancel={() => setConfirmSeparate(false)}
        onConfirm={() => {
          const count = lines.data?.count ?? 0;
          command.mutate(
            { kind: "separate" },
            {
              onSuccess: () => {
                notifications.show({
                  color: "teal",
                  message: `${count === 1 ? "1 transaction was" : `${String(count)} transactions were`} separated from invoice ${number}; it stays open, empty.`,
                });
                void navigate(withClient("/transactions/search"));
              },
              onSettled: () => setConfirmSeparate(false),
            },
          );
        }}
      >
        Take every transaction off invoice {number}? They stay in the ledger and go back to new; the invoice
        stays open, empty.
      </ConfirmDeleteDialog>
      <ConfirmDeleteDialog
        opened={confirmDelete}
        title={`Delete invoice ${number}`}
        loading={command.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() =>
          command.mutate(
            { kind: "delete" },
            {
              onSuccess: () => void navigate(withClient("/transactions/search")),
              onSettled: () => setConfirmDelete(false),
            },
          )
        }
      >
        Delete invoice {number}? Its transactions stay in the ledger and go back to new.
      </ConfirmDeleteDialog>
    </Stack>
  );
}
