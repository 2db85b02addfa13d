import { Alert, Button, Card, Group, SegmentedControl, Stack, Text } from "@mantine/core";
import { readsOversight } from "@cyclebill/domain";
import { useState } from "react";
import { useDownload } from "../../api/download";
import { nextSort, orderingParam, type SortState } from "../../lib/paging";
import { useClientContext } from "../../shared/client-context";
import { useUser } from "../auth/user-context";
import { PageHeader } from "../shell/PageHeader";
import { accessReviewCsvQuery, useAccessReview, type ReviewScope } from "./access-review-api";
import { AccessReviewTable, type AccessReviewSortField } from "./AccessReviewTable";
import { PastReviewsTable } from "./PastReviewsTable";
import { RecordReviewCard } from "./RecordReviewCard";

/**
 * The access review (/access-review): who has which role, their second factors, last sign-in and
 * open sessions, as a table paged by the server and a dated CSV, and the record that a reviewer
 * looked at it. Owners review their own client; admins the selected client or provider-wide.
 */
export function AccessReviewPage() {
  const user = useUser();
  const { clientId, clientName, isAdmin } = useClientContext();
  const [wide, setWide] = useState(clientId === null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [sort, setSort] = useState<SortState<AccessReviewSortField>>({ field: "email", descending: false });
  const download = useDownload();
  const readable = readsOversight({ role: user.role, clientId: user.client_id });
  const providerWide = isAdmin && (wide || clientId === null);
  const scope: ReviewScope = { clientId: providerWide ? null : clientId };
  const scopeName = providerWide
    ? "the provider (admins and every client's users)"
    : (clientName ?? "this client");
  const ordering = orderingParam(sort);
  const users = useAccessReview(scope, { page, pageSize, ordering }, readable);

  return (
    <Stack gap="lg" maw={1200}>
      <PageHeader
        title="Access review"
        description="Who can sign in, with which role and second factors, when they last did and how many sessions are open. Review it regularly and record that you did."
      />
      {!readable ? (
        <Alert color="yellow">
          The access review is kept for the client&apos;s owners and the provider&apos;s admins.
        </Alert>
      ) : (
        <>
          <Card withBorder padding="lg">
            <Group gap="md" align="center" justify="space-between" wrap="wrap">
              {isAdmin ? (
                <Group gap="sm" wrap="wrap">
                  <SegmentedControl
                    aria-label="Which users"
                    value={providerWide ? "provider" : "client"}
                    onChange={(value) => {
                      setWide(value === "provider");
                      setPage(1);
                    }}
                    data={[
                      {
                        value: "client",
                        label: clientId === null ? "Select a client above" : (clientName ?? "This client"),
                        disabled: clientId === null,
                      },
                      { value: "provider", label: "Provider-wide" },
                    ]}
                  />
                </Group>
              ) : (
                <Text size="sm">{clientName ?? "Your client"}: its owners and staff.</Text>
              )}
              <Button
                variant="default"
                loading={download.isPending}
                onClick={() =>
                  download.mutate({
                    path: "/access-review/",
                    query: accessReviewCsvQuery(scope, ordering),
                    fallbackName: "access-review.csv",
                  })
                }
              >
                Download CSV
              </Button>
            </Group>
          </Card>
          <AccessReviewTable
            users={users.data?.results}
            total={users.data?.count ?? 0}
            page={page}
            pageSize={pageSize}
            onPageChange={setPage}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
            sort={sort}
            onSort={(field) => {
              setSort((current) => nextSort(current, field));
              setPage(1);
            }}
            showClient={providerWide}
            loading={users.isPending}
            error={users.error}
          />
          <RecordReviewCard scope={scope} scopeName={scopeName} />
          <PastReviewsTable scope={scope} />
        </>
      )}
    </Stack>
  );
}
