import { Alert, Button, Card, Group, Select, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import {
  ACCOUNT_REGISTER_FAILED_MESSAGE,
  ACCOUNT_TOTALS_FAILED_MESSAGE,
  NO_CLIENT_SELECTED_MESSAGE,
  reportYears,
} from "@cyclebill/domain";
import { ApiError, apiDownload } from "../../api/api-client";
import { saveFile } from "../../api/download";
import { today } from "../../lib/business-date";
import { useClientContext } from "../../shared/client-context";
import { DownloadIcon } from "../shell/icons";
import { PageHeader } from "../shell/PageHeader";
import { MONTH_OPTIONS } from "../../lib/months";
import { ReconciliationReportCard } from "../reconciliation/ReconciliationReportCard";
import { AuditReportCard } from "../audit/AuditReportCard";
import { canReadAudit } from "../audit/audit-api";
import { useUser } from "../auth/user-context";

type Report = "account-register" | "account-totals";

const REPORTS: Record<Report, { label: string; title: string; failed: string; description: string }> = {
  "account-register": {
    label: "Account Register",
    title: "Account Register",
    failed: ACCOUNT_REGISTER_FAILED_MESSAGE,
    description:
      "Every entry of the month by customer, with each customer's opening and closing balance, then totals by code type.",
  },
  "account-totals": {
    label: "Account Totals",
    title: "Account Totals",
    failed: ACCOUNT_TOTALS_FAILED_MESSAGE,
    description:
      "Opening and closing receivables, each code's count and total, the ageing of the closing balance, customers and statements.",
  },
};

/** Account Reports (/reports): pick a year and a month, download the register or the totals. */
export function AccountReportsPage() {
  const { clientId, clientName } = useClientContext();
  const user = useUser();
  const now = today();
  const [year, setYear] = useState(now.slice(0, 4));
  const [month, setMonth] = useState(String(Number(now.slice(5, 7))));
  const yearMonth = `${year}-${month.padStart(2, "0")}`;

  const download = useMutation({
    mutationFn: async (request: { report: Report; format: "pdf" | "csv" }) => {
      const file = await apiDownload(`/pdf/${request.report}/${String(clientId)}/${yearMonth}`, {
        query: request.format === "csv" ? { format: "csv" } : undefined,
        // This screen reports its failures itself (a 401 still ends the session).
        handles: "all",
        fallbackName: `${REPORTS[request.report].title} ${yearMonth}.${request.format}`,
      });
      saveFile(file.blob, file.filename);
    },
    onError: (error, request) => {
      if (error instanceof ApiError && error.status === 401) return;
      notifications.show({ color: "red", message: REPORTS[request.report].failed, autoClose: 8_000 });
    },
  });

  const start = (report: Report, format: "pdf" | "csv") => {
    if (clientId === null) {
      notifications.show({ color: "yellow", message: NO_CLIENT_SELECTED_MESSAGE });
      return;
    }
    download.mutate({ report, format });
  };
  const busy = (report: Report, format: "pdf" | "csv") =>
    download.isPending && download.variables.report === report && download.variables.format === format;

  return (
    <Stack gap="lg" maw={900}>
      <PageHeader
        title="Account Reports"
        description={
          clientName
            ? `${clientName}: the month's books, by service date.`
            : "The month's books of a client, by service date."
        }
      />
      {clientId === null ? (
        <Alert color="yellow" title={NO_CLIENT_SELECTED_MESSAGE} maw={640}>
          Choose a client in the Client Select box above to download its reports.
        </Alert>
      ) : null}
      <Card withBorder padding="lg">
        <Group gap="md" align="flex-end">
          <Select
            label="Year"
            data={reportYears(now).map((value) => String(value))}
            value={year}
            onChange={(value) => value && setYear(value)}
            allowDeselect={false}
            w={120}
          />
          <Select
            label="Month"
            data={MONTH_OPTIONS}
            value={month}
            onChange={(value) => value && setMonth(value)}
            allowDeselect={false}
            w={170}
          />
        </Group>
      </Card>
      {(Object.keys(REPORTS) as Report[]).map((report) => (
        <Card withBorder padding="lg" key={report} component="section" aria-label={REPORTS[report].title}>
          <Group justify="space-between" align="center" wrap="wrap" gap="md">
            <div style={{ flex: "1 1 320px" }}>
              <Text fw={600}>{REPORTS[report].title}</Text>
              <Text size="sm" c="dimmed">
                {REPORTS[report].description}
              </Text>
            </div>
            <Group gap="xs">
              <Button
                leftSection={<DownloadIcon />}
                loading={busy(report, "pdf")}
                onClick={() => start(report, "pdf")}
              >
                {REPORTS[report].label}
              </Button>
              <Button
                variant="default"
                loading={busy(report, "csv")}
                onClick={() => start(report, "csv")}
                aria-label={`${REPORTS[report].label} as CSV`}
              >
                CSV
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
      {clientId === null ? null : <ReconciliationReportCard />}
      {canReadAudit(user) ? <AuditReportCard /> : null}
    </Stack>
  );
}
