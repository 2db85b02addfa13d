import {
  CARD_EXPIRED_MESSAGE,
  cardExpired,
  pageSaysApproved,
  paymentPayloadSchema,
  type PaymentInfo,
  type PublicPaymentInfo,
  type PaymentMethod,
  type PaymentPayload,
  type PaymentResult,
} from "@cyclebill/domain";

// The payment form's rules (spec part 1 §4): what it starts with, what it sends, when it succeeded.

/** Spec §9: the payment submit is debounced 5 s; the redirect check runs 500 ms after closing. */
export const PAYMENT_SUBMIT_DEBOUNCE_MS = 5_000;
export const REDIRECT_CHECK_MS = 500;
/** The provider whose gateway takes the payments; the public page is titled after it. */
export const PAYMENT_PROVIDER = "BluePay";

/**
 * The pay page's toasts rise from the bottom: the app's top-right place sits over the page's title
 * on a phone (the public page has one header bar, not the app's two).
 */
export const PAY_PAGE_TOAST_POSITION = "bottom-center";

/** What a payer reads where the form would be when the client takes no card payments. */
export function noCardPaymentsText(clientName: string): { title: string; message: string } {
  const who = clientName.trim() || "This business";
  return {
    title: `${who} does not take card payments online`,
    message: `There is nothing to pay on this page: please pay ${who} another way, as your statement says.`,
  };
}

export type PaymentFormValues = {
  paymentMethod: PaymentMethod;
  amount: string;
  ccNum: string;
  cvv: string;
  expMonth: string;
  expYear: string;
  checkRoutingNum: string;
  checkAccountNum: string;
  checkAccountType: "C" | "S";
  firstName: string;
  lastName: string;
  billingAddress1: string;
  billingAddress2: string;
  city: string;
  state: string;
  postalCode: string;
  phone1: string;
  email: string;
  savePaymentInfo: boolean;
  autoPay: boolean;
  /** Staff keying a bank account: a signed written agreement is on file (the debit goes PPD). */
  achSignedAgreement: boolean;
};

export type PaymentFormField = keyof PaymentFormValues;
export type PaymentFormErrors = Partial<Record<PaymentFormField, string>>;

/** Who the form pays for: the public page's pay token, a staff-issued link to store a method, or staff's client and customer. */
export type PaymentTarget =
  | { kind: "statement"; statementId: string }
  | { kind: "link"; paymentLink: string }
  | { kind: "customer"; clientId: number; customerId: number; recordPayment: boolean };

/** What the form starts from: the public lookups carry no email; the staff one does. */
export type FormInfo = PublicPaymentInfo & Partial<Pick<PaymentInfo, "email">>;

/** Storing a method: staff's recordPayment, or the customer's staff-issued link. */
export function storesMethod(target: PaymentTarget): boolean {
  return target.kind === "link" || (target.kind === "customer" && target.recordPayment);
}

/**
 * The form's first values. recordPayment: amount 0.00 and savePaymentInfo on. Otherwise the amount
 * the lookup proposes (the statement's amount due, else the balance); with a stored method the
 * form starts on it (useSaved) with savePaymentInfo on.
 */
export function initialPaymentValues(info: FormInfo, recordPayment: boolean): PaymentFormValues {
  const useSaved = info.hasStoredPaymentInfo && !recordPayment;
  return {
    paymentMethod: useSaved ? "useSaved" : "cc",
    amount: recordPayment ? "0.00" : positiveOrEmpty(info.amount),
    ccNum: "",
    cvv: "",
    expMonth: "",
    expYear: "",
    checkRoutingNum: "",
    checkAccountNum: "",
    checkAccountType: "C",
    firstName: info.first_name,
    lastName: info.last_name,
    billingAddress1: info.address1,
    billingAddress2: info.address2,
    city: info.city,
    state: info.state,
    postalCode: info.zip,
    phone1: "",
    email: info.email ?? "",
    savePaymentInfo: recordPayment || useSaved,
    autoPay: recordPayment ? info.autopay_flag : false,
    achSignedAgreement: false,
  };
}

/** A credit balance or zero proposes no amount: the payer types one. */
function positiveOrEmpty(amount: string): string {
  return /^-|^0*(\.0*)?$/.test(amount.trim()) ? "" : amount;
}

/** The payload as the shared schema reads it (raw, before its own trimming and checks). */
export function paymentPayloadInput(
  values: PaymentFormValues,
  target: PaymentTarget,
  info: FormInfo,
): Record<string, unknown> {
  // The public page's saved method pays the statement's amount due, nothing else.
  const amount =
    target.kind === "statement" && values.paymentMethod === "useSaved" ? info.amount : values.amount.trim();
  const common = {
    paymentMethod: values.paymentMethod,
    amount: amount === "" ? "0.00" : amount.replace(/^\$/, "").replace(/,/g, ""),
    firstName: values.firstName,
    lastName: values.lastName,
    billingAddress1: values.billingAddress1,
    billingAddress2: values.billingAddress2,
    city: values.city,
    state: values.state,
    country: "US",
    postalCode: values.postalCode,
    phone1: values.phone1,
    email: values.email,
    customer_no: info.customer_no,
  };
  // Only the chosen method's account fields go out: a card typed and then abandoned for ACH stays here.
  const account =
    values.paymentMethod === "cc"
      ? { ccNum: values.ccNum, cvv: values.cvv, expMonth: values.expMonth, expYear: values.expYear }
      : values.paymentMethod === "check"
        ? {
            checkRoutingNum: values.checkRoutingNum,
            checkAccountNum: values.checkAccountNum,
            checkAccountType: values.checkAccountType,
          }
        : {};
  if (target.kind === "statement") {
    return { ...common, ...account, statementId: target.statementId, recordPayment: false };
  }
  if (target.kind === "link") {
    const { customer_no: _customerNo, ...rest } = common;
    return {
      ...rest,
      ...account,
      amount: "0.00",
      paymentLink: target.paymentLink,
      recordPayment: true,
      savePaymentInfo: true,
      autoPay: values.autoPay,
    };
  }
  return {
    ...common,
    ...account,
    client_id: target.clientId,
    customer_id: target.customerId,
    recordPayment: target.recordPayment,
    savePaymentInfo: target.recordPayment ? true : values.savePaymentInfo,
    autoPay: values.savePaymentInfo || target.recordPayment ? values.autoPay : false,
    isClientInitiated: true,
    ...(values.paymentMethod === "check" ? { achSignedAgreement: values.achSignedAgreement } : {}),
  };
}

export type PaymentValidation =
  { ok: true; payload: PaymentPayload } | { ok: false; errors: PaymentFormErrors };

/** The shared schema's checks, plus the card's expiry against the business date. */
export function validatePayment(
  values: PaymentFormValues,
  target: PaymentTarget,
  info: FormInfo,
  today: string,
): PaymentValidation {
  const parsed = paymentPayloadSchema.safeParse(paymentPayloadInput(values, target, info));
  const errors: PaymentFormErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "amount") as PaymentFormField;
      errors[field] ??= issue.message;
    }
  }
  if (
    values.paymentMethod === "cc" &&
    !errors.expMonth &&
    !errors.expYear &&
    /^\d{2}$/.test(values.expYear.trim()) &&
    cardExpired(values.expMonth.trim(), values.expYear.trim(), today)
  ) {
    errors.expYear = CARD_EXPIRED_MESSAGE;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, payload: parsed.data };
}

/** Field errors of a 400 from the server, on the form's fields; the rest as form messages. */
export function serverPaymentErrors(body: unknown): { fields: PaymentFormErrors; messages: string[] } {
  const fields: PaymentFormErrors = {};
  const messages: string[] = [];
  if (typeof body !== "object" || body === null) return { fields, messages };
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? value.filter((item) => typeof item === "string").join(" ") : value;
    if (typeof text !== "string" || text === "") continue;
    if (key === "detail" || key === "non_field_errors") messages.push(text);
    else if (isFormField(key)) fields[key] = text;
    else messages.push(`${key}: ${text}`);
  }
  return { fields, messages };
}

const FORM_FIELDS = new Set<string>([
  "paymentMethod",
  "amount",
  "ccNum",
  "cvv",
  "expMonth",
  "expYear",
  "checkRoutingNum",
  "checkAccountNum",
  "checkAccountType",
  "firstName",
  "lastName",
  "billingAddress1",
  "billingAddress2",
  "city",
  "state",
  "postalCode",
  "phone1",
  "email",
  "savePaymentInfo",
  "autoPay",
  "achSignedAgreement",
]);

function isFormField(key: string): key is PaymentFormField {
  return FORM_FIELDS.has(key);
}

/** The spec's rule: approved when the message contains 'approved' or 'auth/tkt' (the server agrees). */
export function paymentApproved(result: PaymentResult): boolean {
  return pageSaysApproved(result.message_response);
}

/** A fresh idempotency key; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A saved method as the form names it: "VISA ending 1111, expires 12/29" or "Bank account ending 6789". */
export function storedMethodLabel(method: PaymentInfo["stored_method"]): string {
  if (!method) return "Saved payment method";
  const last4 = method.mask.replace(/[^0-9]/g, "").slice(-4);
  const ending = last4 ? ` ending ${last4}` : "";
  if (method.kind === "ach") return `Bank account${ending}`;
  const expiry = /^\d{4}$/.test(method.expiry)
    ? `, expires ${method.expiry.slice(0, 2)}/${method.expiry.slice(2)}`
    : "";
  return `${method.card_type || "Card"}${ending}${expiry}`;
}
