import { Alert, Anchor, Card, Divider, Group, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { isValidDecimalString, monthEnd, monthStart, sumAmounts } from "@cyclebill/domain";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatAmount, formatIsoDate } from "../../lib/format";
import { displayName } from "../auth/current-user";
import { LoginAlerts } from "../auth/LoginAlerts";
import { useUser } from "../auth/user-context";
import { useClientContext } from "../../shared/client-context";
import { useClientSummary, type ClientSummaryData } from "./summary";
import { RetryAlert } from "../shell/RetryAlert";
import { NeedsChecking } from "../payments/NeedsChecking";
import { GatewayReturns } from "../gateway-events/GatewayReturns";
import { WorkQueue } from "../work-queue/WorkQueue";

export function HomePage() {
  const user = useUser();
  const { isAdmin, clientId, clientName } = useClientContext();

  return (
    <Stack gap="lg" maw={1200}>
      <title>Home · Cyclebill</title>
      <div>
        <Title order={1} size="h2">
          Welcome, {displayName(user)}
        </Title>
        {clientId !== null && clientName ? <Text c="dimmed">{clientName}</Text> : null}
      </div>
      {/* Every attacked account, the provider's admins included: admins see it first thing. */}
      {isAdmin ? <LoginAlerts clientId={null} /> : null}
      {/* The provider's admins: every client's work (or the chosen client's); an owner: its own. */}
      {isAdmin || (clientId !== null && !user.is_client_staff) ? <WorkQueue clientId={clientId} /> : null}
      {clientId === null ? (
        isAdmin ? (
          <ChooseClientPrompt />
        ) : (
          <NotAttachedNotice email={user.email} />
        )
      ) : (
        <ClientDashboard clientId={clientId} showBalances={!user.is_client_staff} />
      )}
    </Stack>
  );
}

function ChooseClientPrompt() {
  return (
    <Card withBorder padding="lg" maw={640}>
      <Text fw={600} mb={4}>
        Choose a client to get started
      </Text>
      <Text size="sm" c="dimmed">
        Search for a client in the Client Select box above. Its customer and transaction counts and its
        receivables summary appear here, and every screen works on that client until you choose another.
      </Text>
      <Anchor component={Link} to="/clients" size="sm" mt="sm">
        Browse the client list
      </Anchor>
    </Card>
  );
}

function NotAttachedNotice({ email }: { email: string }) {
  return (
    <Alert color="yellow" title="Your account is not attached to a client yet" maw={640}>
      An administrator must attach your account to a client before you can work with its customers,
      transactions and statements. Ask your billing provider&apos;s administrator to add {email} to your
      business, then log in again.
    </Alert>
  );
}

function ClientDashboard({ clientId, showBalances }: { clientId: number; showBalances: boolean }) {
  const { withClient } = useClientContext();
  const summary = useClientSummary(clientId);

  if (summary.isPending) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Skeleton h={120} />
        <Skeleton h={120} />
      </SimpleGrid>
    );
  }
  if (summary.isError) {
    return <RetryAlert title="The summary could not be loaded" query={summary} />;
  }

  const data = summary.data;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CountCard
          label="Customers"
          count={data.totalCustomers}
          linkLabel="Add a customer"
          to={withClient("/customers/manage?mode=add")}
        />
        <CountCard
          label="Transactions"
          count={data.totalTransactions}
          linkLabel="Search transactions"
          to={withClient("/transactions/search")}
        />
      </SimpleGrid>
      {showBalances ? <BalanceCards data={data} /> : null}
      <NeedsChecking clientId={clientId} />
      {showBalances ? <GatewayReturns clientId={clientId} /> : null}
    </Stack>
  );
}

function CountCard(props: { label: string; count: number; linkLabel: string; to: string }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={props.label}>
      <Text size="sm" c="dimmed" fw={500}>
        {props.label}
      </Text>
      <Text fz={32} fw={700} lh={1.3}>
        {props.count.toLocaleString("en-US")}
      </Text>
      <Anchor component={Link} to={props.to} size="sm" mt="xs">
        {props.linkLabel} →
      </Anchor>
    </Card>
  );
}

function BalanceCards({ data }: { data: ClientSummaryData }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <SummaryCard
        title="Accounts Receivable"
        subtitle={data.arBalanceAsOfDate ? `As of ${formatIsoDate(data.arBalanceAsOfDate)}` : undefined}
      >
        <AmountRow label="Current" amount={data.arCurrentBalance} />
        <AmountRow label="30 days" amount={data.arOverdue30} />
        <AmountRow label="60 days" amount={data.arOverdue60} />
        <AmountRow label="90 days and over" amount={data.arOverdue90} />
        <Divider my={4} />
        <AmountRow label="Total" amount={receivableTotal(data)} strong />
      </SummaryCard>
      {/* The calendar month (everything posted dated in it, a payment credited tomorrow after a
          same-day run included), as on the Status tab; the customer list's and Balance Sheet's
          figures are since each customer's last statement. */}
      <SummaryCard
        title="This month"
        subtitle={
          data.arBalanceAsOfDate
            ? `${formatIsoDate(monthStart(data.arBalanceAsOfDate))} – ${formatIsoDate(monthEnd(data.arBalanceAsOfDate))}`
            : undefined
        }
      >
        <AmountRow label="Charges" amount={data.mtdCharges} />
        <AmountRow label="Payments" amount={data.mtdPayments} />
        <AmountRow label="Credit adjustments" amount={data.mtdCreditAdj} />
        <AmountRow label="Debit adjustments" amount={data.mtdDebitAdj} />
        <Divider my={4} />
        <AmountRow label="Total" amount={data.mtdTotal} strong />
      </SummaryCard>
      <SummaryCard title="Your Balance">
        <Text fz={32} fw={700} lh={1.3} aria-label="New balance">
          {formatAmount(data.newBalance)}
        </Text>
        <Text size="sm" c="dimmed">
          New balance
        </Text>
        {data.obexDateOfLastPayment ? (
          <Text size="sm" c="dimmed">
            Last payment received {formatIsoDate(data.obexDateOfLastPayment)}
          </Text>
        ) : null}
      </SummaryCard>
    </SimpleGrid>
  );
}

// Summed exactly (decimal strings), never through floats; a malformed bucket leaves the total blank.
function receivableTotal(data: ClientSummaryData): string {
  const buckets = [data.arCurrentBalance, data.arOverdue30, data.arOverdue60, data.arOverdue90];
  return buckets.every((amount) => isValidDecimalString(amount)) ? sumAmounts(buckets) : "";
}

function SummaryCard(props: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={props.title}>
      <Group justify="space-between" align="baseline" mb="sm">
        <Title order={2} size="h4">
          {props.title}
        </Title>
        {props.subtitle ? (
          <Text size="xs" c="dimmed">
            {props.subtitle}
          </Text>
        ) : null}
      </Group>
      <Stack gap={6}>{props.children}</Stack>
    </Card>
  );
}

function AmountRow({ label, amount, strong }: { label: string; amount: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 600 : 500} style={{ fontVariantNumeric: "tabular-nums" }}>
        {formatAmount(amount)}
      </Text>
    </Group>
  );
}
