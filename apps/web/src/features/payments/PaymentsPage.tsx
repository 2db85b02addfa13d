import {
  NO_GATEWAY_KEY_MESSAGE,
  PAYMENT_LINK_INVALID_MESSAGE,
  STATEMENT_NOT_FOUND_MESSAGE,
  type PaymentResult,
} from "@cyclebill/domain";
import { Alert, Anchor, Button, Group, Skeleton, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { ApiError, describeApiError } from "../../api/api-client";
import { useSessionToken } from "../../api/session";
import { useCurrentUser } from "../auth/current-user";
import { loginPathFor } from "../auth/redirect";
import { formatAmount } from "../../lib/format";
import { parseClientId } from "../../shared/client-context";
import { PaymentForm } from "./PaymentForm";
import {
  NoCardPayments,
  PaymentSummary,
  ReceiptAlert,
  ReplacedStatementNote,
  type Receipt,
} from "./PaymentPageParts";
import {
  PAYMENT_PROVIDER,
  PAY_PAGE_TOAST_POSITION,
  REDIRECT_CHECK_MS,
  type PaymentTarget,
} from "./payment-form";
import {
  invalidateCustomerPayments,
  useCustomerPaymentInfo,
  usePaymentLinkInfo,
  usePublicPaymentInfo,
} from "./payments-api";

/** Spec §9: the statement-id navigation is debounced 1 s. */
const LOOKUP_DEBOUNCE_MS = 1_000;
const PAGE_TITLE = `${PAYMENT_PROVIDER} payments`;

/**
 * /payments: the public pay-a-statement page (statement_id, or a typed pay code), and the staff
 * form from a customer (customer_id, client_id, recordPayment).
 */
export function PaymentsPage() {
  const [searchParams] = useSearchParams();
  const customerId = parseClientId(searchParams.get("customer_id"));
  const statementId = searchParams.get("statement_id")?.trim() ?? "";
  const paymentLink = searchParams.get("link")?.trim() ?? "";
  if (paymentLink !== "" && customerId === null)
    return <LinkPayment key={paymentLink} paymentLink={paymentLink} />;
  if (customerId !== null) {
    return (
      <StaffPayment
        customerId={customerId}
        clientParam={parseClientId(searchParams.get("client_id"))}
        recordPayment={searchParams.get("recordPayment") === "true"}
      />
    );
  }
  if (statementId !== "") return <StatementPayment key={statementId} statementId={statementId} />;
  return <StatementLookup />;
}

function Heading({ subtitle }: { subtitle?: string }) {
  return (
    <div>
      <title>{`${PAGE_TITLE} · Cyclebill`}</title>
      <Title order={1} size="h2">
        {PAGE_TITLE}
      </Title>
      {subtitle ? (
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      ) : null}
    </div>
  );
}

/** The pay code printed on the statement (or carried in its email's link). */
function StatementLookup() {
  const navigate = useNavigate();
  const location = useLocation();
  const receipt = (location.state as { receipt?: Receipt } | null)?.receipt;
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const lastLookup = useRef(0);

  const find = () => {
    const value = payTokenFrom(code);
    if (value === "") {
      setError("Enter the payment code printed on your statement.");
      return;
    }
    if (Date.now() - lastLookup.current < LOOKUP_DEBOUNCE_MS) return;
    lastLookup.current = Date.now();
    setWaiting(true);
    void navigate(`/payments?${new URLSearchParams({ statement_id: value }).toString()}`);
  };

  return (
    <Stack gap="lg">
      <Heading subtitle="Pay your statement online by card or bank account." />
      {receipt ? <ReceiptAlert receipt={receipt} /> : null}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          find();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Payment code"
            description="Printed on your statement after “Pay online” (statement_id=…); or paste the whole link"
            value={code}
            error={error}
            autoFocus
            autoComplete="off"
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={waiting}>
              Find statement
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The pay code from what was typed: the code itself, or the statement's whole pay link. */
export function payTokenFrom(typed: string): string {
  const text = typed.trim();
  const fromLink = /[?&]statement_id=([^&#\s]+)/.exec(text)?.[1];
  if (fromLink === undefined) return text;
  try {
    return decodeURIComponent(fromLink).trim();
  } catch {
    return fromLink;
  }
}

/** Approval: the success alert, then close the window; still open 500 ms later, go to `fallback`. */
function useApprovalHandler(fallback: string, recordPayment: boolean, afterApproval?: () => void) {
  const navigate = useNavigate();
  return (result: PaymentResult) => {
    notifications.show({
      position: PAY_PAGE_TOAST_POSITION,
      color: "teal",
      title: recordPayment ? "Payment method stored" : "Payment approved",
      message: recordPayment
        ? result.message_response
        : `${formatAmount(result.amount_response)}: ${result.message_response}`,
      autoClose: 10_000,
    });
    afterApproval?.();
    window.close();
    window.setTimeout(() => {
      if (!window.closed) void navigate(fallback, { state: { receipt: { result, recordPayment } } });
    }, REDIRECT_CHECK_MS);
  };
}

function StatementPayment({ statementId }: { statementId: string }) {
  const navigate = useNavigate();
  const info = usePublicPaymentInfo(statementId);
  const onApproved = useApprovalHandler("/payments", false);
  const notFound = info.error instanceof ApiError && [400, 404].includes(info.error.status);

  useEffect(() => {
    if (!notFound) return;
    notifications.show({
      id: "statement-not-found",
      position: PAY_PAGE_TOAST_POSITION,
      color: "red",
      message: STATEMENT_NOT_FOUND_MESSAGE,
    });
    void navigate("/payments", { replace: true });
  }, [notFound, navigate]);

  if (info.isPending || notFound) return <FormSkeleton />;
  if (info.isError) {
    return (
      <Stack gap="lg">
        <Heading />
        <Alert color="red" title="The statement could not be looked up" role="alert">
          {describeApiError(info.error)}
        </Alert>
        <Anchor component={Link} to="/payments">
          Enter another payment code
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Heading subtitle={info.data.client_name} />
      {info.data.statement?.replaced_statement ? (
        <ReplacedStatementNote
          replaced={info.data.statement.replaced_statement}
          latestNum={info.data.statement.statement_num}
        />
      ) : null}
      <PaymentSummary info={info.data} />
      {/* Autopay charges the statement on its date: the page asks for nothing and offers no Pay. */}
      {!info.data.takes_card_payments ? (
        <NoCardPayments clientName={info.data.client_name} />
      ) : info.data.statement?.autopay_notice ? null : (
        <PaymentForm info={info.data} target={{ kind: "statement", statementId }} onApproved={onApproved} />
      )}
    </Stack>
  );
}

function FormSkeleton() {
  return (
    <Stack gap="md">
      <Heading />
      <Skeleton h={80} />
      <Skeleton h={36} />
      <Skeleton h={220} />
    </Stack>
  );
}

/** The staff form from a customer: take a payment now, or store a payment method (recordPayment). */
function StaffPayment(props: { customerId: number; clientParam: number | null; recordPayment: boolean }) {
  const { customerId, recordPayment } = props;
  const token = useSessionToken();
  const me = useCurrentUser();
  const location = useLocation();
  const queryClient = useQueryClient();
  const user = me.data?.userInfo;
  const clientId = user ? (user.isAdmin ? props.clientParam : user.client_id) : null;
  const info = useCustomerPaymentInfo(clientId, token && user ? customerId : null);
  const back = `/customers/edit/${String(customerId)}?${new URLSearchParams({
    ...(clientId !== null ? { client_id: String(clientId) } : {}),
    tab: "payments",
  }).toString()}`;
  const onApproved = useApprovalHandler(back, recordPayment, () => {
    if (clientId !== null) void invalidateCustomerPayments(queryClient, clientId, customerId);
  });
  const title = recordPayment ? "Store a payment method" : "Take a payment";

  if (token === null) {
    return (
      <Stack gap="lg">
        <Heading subtitle={title} />
        <Alert color="blue" title="Sign in to continue">
          Taking a payment for a customer needs a staff login.{" "}
          <Anchor component={Link} to={loginPathFor(`${location.pathname}${location.search}`)}>
            Sign in
          </Anchor>
        </Alert>
      </Stack>
    );
  }
  if (me.isPending) return <FormSkeleton />;
  if (clientId === null) {
    return (
      <Stack gap="lg">
        <Heading subtitle={title} />
        <Alert color="yellow" title="No client selected">
          Open this form from the customer&apos;s page so it names the client.
        </Alert>
      </Stack>
    );
  }
  if (info.isError) {
    return (
      <Stack gap="lg">
        <Heading subtitle={title} />
        <Alert color="red" title="The customer could not be loaded" role="alert">
          {describeApiError(info.error)}
        </Alert>
        <Anchor component={Link} to={back}>
          ← Back to the customer
        </Anchor>
      </Stack>
    );
  }
  if (info.isPending) return <FormSkeleton />;
  const target: PaymentTarget = { kind: "customer", clientId, customerId, recordPayment };
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={back} size="sm">
        ← Back to the customer
      </Anchor>
      <Heading subtitle={`${title} · ${info.data.client_name}`} />
      {info.data.statement?.replaced_statement ? (
        <ReplacedStatementNote
          replaced={info.data.statement.replaced_statement}
          latestNum={info.data.statement.statement_num}
        />
      ) : null}
      <PaymentSummary info={info.data} />
      {recordPayment && info.data.stored_method ? (
        <Alert color="yellow" variant="light" title="Replaces the stored method">
          This customer already has a stored method on file. Storing a new one replaces it.
        </Alert>
      ) : null}
      {info.data.takes_card_payments ? (
        <PaymentForm info={info.data} target={target} onApproved={onApproved} />
      ) : (
        <Alert color="yellow" variant="light" title="No card payments for this client" role="status">
          {NO_GATEWAY_KEY_MESSAGE} Record a check or cash payment as a transaction instead.
        </Alert>
      )}
    </Stack>
  );
}

/** A staff-issued link (single use, 7 days): the customer stores a card or bank account and chooses autopay. */
function LinkPayment({ paymentLink }: { paymentLink: string }) {
  const info = usePaymentLinkInfo(paymentLink);
  const onApproved = useApprovalHandler("/payments", true);
  if (info.isPending) return <FormSkeleton />;
  if (info.isError) {
    const gone = info.error instanceof ApiError && [400, 404].includes(info.error.status);
    return (
      <Stack gap="lg">
        <Heading />
        <Alert color="red" title="This link cannot be used" role="alert">
          {gone ? PAYMENT_LINK_INVALID_MESSAGE : describeApiError(info.error)}
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Heading subtitle={`${info.data.client_name}: store a payment method for your account`} />
      {info.data.statement?.replaced_statement ? (
        <ReplacedStatementNote
          replaced={info.data.statement.replaced_statement}
          latestNum={info.data.statement.statement_num}
        />
      ) : null}
      <PaymentSummary info={info.data} />
      {info.data.takes_card_payments ? (
        <>
          <Text size="sm" c="dimmed">
            Nothing is charged now. The card or bank account is kept by the payment provider for your future
            payments; turn on autopay to have each statement&apos;s amount due charged to it.
          </Text>
          <PaymentForm info={info.data} target={{ kind: "link", paymentLink }} onApproved={onApproved} />
        </>
      ) : (
        <NoCardPayments clientName={info.data.client_name} />
      )}
    </Stack>
  );
}
