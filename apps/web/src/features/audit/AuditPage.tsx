import { Alert, Button, Card, Group, SegmentedControl, Select, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { useDownload } from "../../api/download";
import { useClientContext } from "../../shared/client-context";
import { useUser } from "../auth/user-context";
import { PageHeader } from "../shell/PageHeader";
import { auditQuery, canReadAudit, useAuditEvents, type AuditFilters } from "./audit-api";
import { AuditEventsTable } from "./AuditEventsTable";

/** The kinds of record the trail names, for the filter. */
const RECORD_KINDS = [
  { value: "customer", label: "Customers" },
  { value: "ledger_entry", label: "Ledger entries" },
  { value: "invoice", label: "Invoices" },
  { value: "statement", label: "Statements" },
  { value: "production_run", label: "Production runs" },
  { value: "client", label: "Clients" },
  { value: "user", label: "Users" },
  { value: "code", label: "Bill codes" },
  { value: "group", label: "Groups" },
  { value: "stored_amount", label: "Stored amounts" },
  { value: "recurring_charge", label: "Recurring charges" },
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The audit trail (/audit): who changed what, from where, and each field before and after, filtered
 * by who, client, kind and dates, paged by the server, and downloaded as CSV. Admins read every
 * client's trail and the provider's own; owners their client's.
 */
export function AuditPage() {
  const user = useUser();
  const { clientId, clientName, isAdmin } = useClientContext();
  const [scope, setScope] = useState<"client" | "all">(clientId === null ? "all" : "client");
  const [actor, setActor] = useState("");
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const download = useDownload();
  const readable = canReadAudit(user);
  const filters: AuditFilters = {
    client_id: isAdmin && (scope === "all" || clientId === null) ? null : clientId,
    actor: actor.trim(),
    record_kind: kind ?? undefined,
    from: DATE.test(from) ? from : undefined,
    to: DATE.test(to) ? to : undefined,
  };
  const events = useAuditEvents(filters, page, pageSize, readable);
  const refilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <Stack gap="lg" maw={1200}>
      <PageHeader
        title="Audit trail"
        description="Every change: who made it, when and from where, and each field before and after. The trail cannot be edited; the doctor proves it."
      />
      {!readable ? (
        <Alert color="yellow">
          The audit trail is kept for the client&apos;s owners and the provider&apos;s admins.
        </Alert>
      ) : (
        <>
          <Card withBorder padding="lg">
            <Group gap="md" align="flex-end" wrap="wrap">
              {isAdmin && clientId !== null ? (
                <SegmentedControl
                  aria-label="Which trail"
                  value={scope}
                  onChange={(value) => refilter(setScope)(value as "client" | "all")}
                  data={[
                    { value: "client", label: clientName ?? "This client" },
                    { value: "all", label: "All clients" },
                  ]}
                />
              ) : null}
              <TextInput
                label="Who"
                placeholder="Email, job or user id"
                value={actor}
                onChange={(event) => refilter(setActor)(event.currentTarget.value)}
                w={220}
              />
              <Select
                label="Kind"
                placeholder="Any"
                clearable
                data={RECORD_KINDS}
                value={kind}
                onChange={refilter(setKind)}
                w={190}
              />
              <TextInput
                label="From"
                type="date"
                value={from}
                onChange={(event) => refilter(setFrom)(event.currentTarget.value)}
                w={160}
              />
              <TextInput
                label="To"
                type="date"
                value={to}
                onChange={(event) => refilter(setTo)(event.currentTarget.value)}
                w={160}
              />
              <Button
                variant="default"
                loading={download.isPending}
                onClick={() =>
                  download.mutate({
                    path: "/audit/",
                    query: { ...auditQuery(filters), format: "csv" },
                    fallbackName: "audit-trail.csv",
                  })
                }
              >
                CSV
              </Button>
            </Group>
          </Card>
          <AuditEventsTable
            label="Audit trail"
            showRecord
            events={events.data?.results}
            total={events.data?.count ?? 0}
            page={page}
            pageSize={pageSize}
            onPageChange={setPage}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
            loading={events.isPending}
            error={events.error}
          />
        </>
      )}
    </Stack>
  );
}
