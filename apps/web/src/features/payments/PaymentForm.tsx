import type { PaymentResult } from "@cyclebill/domain";
import {
  Alert,
  Button,
  Checkbox,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useEffect, useState } from "react";
import { describeApiError } from "../../api/api-client";
import { today } from "../../lib/business-date";
import { formatAmount } from "../../lib/format";
import { StateSelect } from "../shell/StateSelect";
import {
  PAYMENT_SUBMIT_DEBOUNCE_MS,
  initialPaymentValues,
  paymentApproved,
  serverPaymentErrors,
  storedMethodLabel,
  storesMethod,
  validatePayment,
  type FormInfo,
  type PaymentFormErrors,
  type PaymentFormField,
  type PaymentFormValues,
  type PaymentTarget,
} from "./payment-form";
import { usePaymentSubmit } from "./use-payment-submit";

export type PaymentFormProps = {
  info: FormInfo;
  target: PaymentTarget;
  /** Called once with an approved result (the page then alerts, closes or redirects). */
  onApproved: (result: PaymentResult) => void;
};

/** The payment form (spec part 1 §4): card, check/ACH or the saved method; amount; billing details. */
export function PaymentForm({ info, target, onApproved }: PaymentFormProps) {
  const recordPayment = storesMethod(target);
  const staff = target.kind === "customer";
  const [values, setValues] = useState<PaymentFormValues>(() => initialPaymentValues(info, recordPayment));
  const [errors, setErrors] = useState<PaymentFormErrors>({});
  // The public page's saved method pays exactly the statement's amount due.
  const fixedAmount = target.kind === "statement" && values.paymentMethod === "useSaved";
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [cooling, setCooling] = useState(false);
  const { submit, pending } = usePaymentSubmit();

  useEffect(() => {
    if (!cooling) return;
    const timer = window.setTimeout(() => setCooling(false), PAYMENT_SUBMIT_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [cooling]);

  const set = <F extends PaymentFormField>(field: F, value: PaymentFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async () => {
    setFailure(null);
    const checked = validatePayment(values, target, info, today());
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    const outcome = await submit(checked.payload);
    if (outcome === null) return;
    setCooling(true);
    if (outcome.kind === "answered") {
      if (paymentApproved(outcome.result)) {
        // The card details go with the approval: nothing typed stays in the page's memory.
        setValues((current) => ({ ...current, ccNum: "", cvv: "", checkAccountNum: "" }));
        onApproved(outcome.result);
      } else {
        setFailure({
          title: recordPayment ? "The payment method was not stored" : "The payment was not approved",
          message: outcome.result.message_response,
        });
      }
      return;
    }
    if (outcome.kind === "rejected" && outcome.error.status === 400) {
      const fromServer = serverPaymentErrors(outcome.error.body);
      setErrors(fromServer.fields);
      setFailure({
        title: "Please correct the payment details",
        message: fromServer.messages.join(" ") || "Some fields need attention.",
      });
      return;
    }
    setFailure({
      title: "The payment could not be sent",
      message:
        outcome.kind === "rejected"
          ? describeApiError(outcome.error)
          : "No answer from the server. Check your connection; trying again will not charge twice.",
    });
  };

  const methodOptions = [
    ...(info.hasStoredPaymentInfo && !recordPayment ? [{ value: "useSaved", label: "Saved method" }] : []),
    { value: "cc", label: "Card" },
    // BluePay takes no $0.00 AUTH for ACH: a bank account is stored with its first payment.
    ...(recordPayment ? [] : [{ value: "check", label: "Check (ACH)" }]),
  ];
  const text = (field: PaymentFormField, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={String(values[field])}
      error={errors[field]}
      onChange={(event) => set(field, event.currentTarget.value as never)}
      {...extra}
    />
  );
  const submitLabel = recordPayment
    ? values.paymentMethod === "check"
      ? "Store bank account"
      : "Store card"
    : `Pay ${formatAmount(normaliseAmount(values.amount)) === "—" ? "" : formatAmount(normaliseAmount(values.amount))}`.trim();

  return (
    <form
      noValidate
      aria-label={recordPayment ? "Store a payment method" : "Payment"}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Stack gap="md">
        <div>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
            Payment method
          </Text>
          <SegmentedControl
            fullWidth
            data={methodOptions}
            value={values.paymentMethod}
            onChange={(value) => set("paymentMethod", value as PaymentFormValues["paymentMethod"])}
            aria-label="Payment method"
          />
          {errors.paymentMethod ? (
            <Text size="xs" c="red" mt={4}>
              {errors.paymentMethod}
            </Text>
          ) : null}
          {recordPayment ? (
            <Text size="xs" c="dimmed" mt={4}>
              A bank account is stored with its first payment.
            </Text>
          ) : null}
        </div>

        {values.paymentMethod === "useSaved" ? (
          <Alert variant="light" color="blue" title="Pay with the saved method">
            {storedMethodLabel(info.stored_method)}
          </Alert>
        ) : null}

        {values.paymentMethod === "cc" ? (
          <Stack gap="sm">
            {text("ccNum", "Card number", {
              inputMode: "numeric",
              autoComplete: "cc-number",
              placeholder: "1234 5678 9012 3456",
              required: true,
            })}
            {/* Three across would leave each ~77 px on a 390 px phone and wrap "Exp. month *". */}
            <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm">
              {text("expMonth", "Exp. month", {
                inputMode: "numeric",
                autoComplete: "cc-exp-month",
                placeholder: "MM",
                maxLength: 2,
                required: true,
              })}
              {text("expYear", "Exp. year", {
                inputMode: "numeric",
                autoComplete: "cc-exp-year",
                placeholder: "YY",
                maxLength: 2,
                required: true,
              })}
              {text("cvv", "CVV", {
                inputMode: "numeric",
                autoComplete: "cc-csc",
                placeholder: "123",
                maxLength: 4,
                required: true,
              })}
            </SimpleGrid>
          </Stack>
        ) : null}

        {values.paymentMethod === "check" ? (
          <Stack gap="sm">
            <SegmentedControl
              data={[
                { value: "C", label: "Checking" },
                { value: "S", label: "Savings" },
              ]}
              value={values.checkAccountType}
              onChange={(value) => set("checkAccountType", value === "S" ? "S" : "C")}
              aria-label="Account type"
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {text("checkRoutingNum", "Routing number", {
                inputMode: "numeric",
                maxLength: 9,
                required: true,
              })}
              {text("checkAccountNum", "Account number", { inputMode: "numeric", required: true })}
            </SimpleGrid>
            {staff ? (
              <Checkbox
                label="Signed ACH agreement on file"
                description="Without one, a debit keyed here goes as a phone payment (TEL)"
                checked={values.achSignedAgreement}
                onChange={(event) => set("achSignedAgreement", event.currentTarget.checked)}
              />
            ) : null}
          </Stack>
        ) : null}

        {recordPayment ? null : (
          <TextInput
            label="Amount"
            leftSection="$"
            inputMode="decimal"
            value={fixedAmount ? info.amount : values.amount}
            error={errors.amount}
            required
            readOnly={fixedAmount}
            description={
              fixedAmount
                ? "The saved method pays the statement's amount due"
                : `Account balance ${formatAmount(info.accountbalance)}`
            }
            onChange={(event) => set("amount", event.currentTarget.value)}
          />
        )}

        <Title order={2} size="h5" mt="xs">
          {values.paymentMethod === "check" ? "Account holder" : "Billing details"}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {text("firstName", "First name", { autoComplete: "given-name" })}
          {text("lastName", "Last name", { autoComplete: "family-name" })}
        </SimpleGrid>
        {text("billingAddress1", "Address", { autoComplete: "address-line1" })}
        {text("billingAddress2", "Address line 2", { autoComplete: "address-line2" })}
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          {text("city", "City", { autoComplete: "address-level2" })}
          <StateSelect
            label="State"
            value={values.state}
            error={errors.state}
            onChange={(value) => set("state", value)}
          />
          {text("postalCode", "ZIP", { autoComplete: "postal-code", inputMode: "numeric" })}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {text("email", "Email (for the receipt)", { type: "email", autoComplete: "email" })}
          {text("phone1", "Phone", { type: "tel", autoComplete: "tel" })}
        </SimpleGrid>

        {staff || target.kind === "link" ? (
          <Stack gap="xs">
            {recordPayment || values.paymentMethod === "useSaved" ? null : (
              <Checkbox
                label="Save this payment method for future payments"
                checked={values.savePaymentInfo}
                onChange={(event) => set("savePaymentInfo", event.currentTarget.checked)}
              />
            )}
            {(recordPayment || values.savePaymentInfo) && values.paymentMethod !== "useSaved" ? (
              <Switch
                label="Autopay"
                description="Charge each new statement's amount due to this method after the billing run"
                checked={values.autoPay}
                onChange={(event) => set("autoPay", event.currentTarget.checked)}
              />
            ) : null}
          </Stack>
        ) : null}

        {failure ? (
          <Alert
            color="red"
            title={failure.title}
            role="alert"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setFailure(null)}
          >
            {failure.message}
          </Alert>
        ) : null}

        <Group justify="flex-end">
          <Button type="submit" size="md" loading={pending} disabled={cooling && !pending}>
            {submitLabel}
          </Button>
        </Group>
        {cooling && !pending ? (
          <Text size="xs" c="dimmed" ta="right">
            You can submit again in a few seconds.
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

function normaliseAmount(raw: string): string {
  const cleaned = raw.trim().replace(/^\$/, "").replace(/,/g, "");
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? cleaned : "";
}
