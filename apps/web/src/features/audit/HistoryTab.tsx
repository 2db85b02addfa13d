import { Text } from "@mantine/core";
import { useState } from "react";
import { useAuditEvents, type AuditFilters } from "./audit-api";
import { AuditEventsTable } from "./AuditEventsTable";

/**
 * A record's History tab (customer, invoice, statement, client, user): every change the trail holds
 * for it (for a customer, also its entries, stored amounts and charges), newest first, paged by the
 * server. Owners and admins read the trail; staff are told so.
 */
export function HistoryTab(props: { filters: AuditFilters; canRead: boolean; showRecord?: boolean }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const events = useAuditEvents(props.filters, page, pageSize, props.canRead);
  if (!props.canRead)
    return (
      <Text c="dimmed">The history is kept for the client&apos;s owners and the provider&apos;s admins.</Text>
    );
  return (
    <AuditEventsTable
      label="History"
      showRecord={props.showRecord}
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
  );
}
