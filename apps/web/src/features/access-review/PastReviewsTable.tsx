import { Alert, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { TablePager } from "../shell/TablePager";
import { formatMoment } from "../../lib/format";
import { useAccessReviewRecords, type ReviewScope } from "./access-review-api";

const PAGE_SIZES = [10, 25, 50] as const;

/** The scope's past reviews, newest first: when, who, how many users, and the note. */
export function PastReviewsTable({ scope }: { scope: ReviewScope }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const records = useAccessReviewRecords(scope, page, pageSize);
  if (records.error) return <Alert color="red">{records.error.message}</Alert>;
  const rows = records.data?.results;
  return (
    <Stack gap="sm" component="section" aria-labelledby="past-reviews-title">
      <Text fw={600} id="past-reviews-title" component="h2" size="lg">
        Past reviews
      </Text>
      <Table.ScrollContainer minWidth={820}>
        <Table striped verticalSpacing="sm" aria-label="Past reviews">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={160}>When</Table.Th>
              <Table.Th w={220}>Reviewer</Table.Th>
              <Table.Th w={90} ta="right">
                Users
              </Table.Th>
              <Table.Th>Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((review) => (
              <Table.Tr key={review.id}>
                <Table.Td valign="top">{formatMoment(review.reviewed_at)}</Table.Td>
                <Table.Td valign="top" style={{ wordBreak: "break-word" }}>
                  {review.reviewer}
                </Table.Td>
                <Table.Td valign="top" ta="right">
                  {review.users_count}
                  <Text size="xs" c="dimmed">
                    {review.active_users_count} active
                  </Text>
                </Table.Td>
                <Table.Td valign="top" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                  {review.note}
                </Table.Td>
              </Table.Tr>
            ))}
            {rows && rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed">{records.isPending ? "Loading…" : "No review recorded yet."}</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        total={records.data?.count ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        noun={{ one: "review" }}
        pageSizeOptions={PAGE_SIZES}
      />
    </Stack>
  );
}
