import {
  BI_PULL_FLAGS,
  BI_PULL_FLAG_LABELS,
  CUSTOMER_FINANCE_FLAGS,
  CUSTOMER_FINANCE_FLAG_LABELS,
  PULL_EXPLANATIONS,
  PULL_EXPLANATION_LABELS,
  PULL_FLAGS,
  PULL_FLAG_LABELS,
  TAX_STATUSES,
  deriveBiPullFlag,
  needsEmail,
  type PullFlag,
} from "@cyclebill/domain";
import { Select, Switch, TextInput, Textarea } from "@mantine/core";
import type { ReactNode } from "react";
import { PhoneInput } from "../shell/PhoneInput";
import { StateSelect } from "../shell/StateSelect";
import type { CustomerField, CustomerFieldErrors, CustomerFormValues } from "./customer-form";
import { FieldSection } from "../shell/FieldSection";

export type SetCustomerField = <K extends CustomerField>(field: K, value: CustomerFormValues[K]) => void;

export type CustomerSectionProps = {
  values: CustomerFormValues;
  errors: CustomerFieldErrors;
  set: SetCustomerField;
  disabled?: boolean;
  /** Marks the name fields when none of them is filled in (the message itself is in the form's alert). */
  nameMissing?: boolean;
};

const NAME_FIELDS: readonly CustomerField[] = ["first_name", "last_name", "company_name"];

export const TAX_STATUS_LABELS: Record<(typeof TAX_STATUSES)[number], string> = {
  T: "Taxable",
  F: "Tax exempt",
};

const PULL_FLAG_OPTIONS = PULL_FLAGS.map((flag) => ({
  value: flag,
  label: `${flag} · ${PULL_FLAG_LABELS[flag]}`,
}));
const BI_PULL_FLAG_OPTIONS = BI_PULL_FLAGS.map((flag) => ({
  value: flag,
  label: `${flag} · ${BI_PULL_FLAG_LABELS[flag]}`,
}));
const FINANCE_OPTIONS = CUSTOMER_FINANCE_FLAGS.map((flag) => ({
  value: flag,
  label: `${flag} · ${CUSTOMER_FINANCE_FLAG_LABELS[flag]}`,
}));
const TAX_OPTIONS = TAX_STATUSES.map((status) => ({
  value: status,
  label: `${status} · ${TAX_STATUS_LABELS[status]}`,
}));
const PULL_EXPLANATION_OPTIONS = PULL_EXPLANATIONS.map((code) => ({
  value: code,
  label: `${code} · ${PULL_EXPLANATION_LABELS[code]}`,
}));

/** A titled group of fields in columns; an unbordered one is transparent. */
export function CustomerSection({
  bordered = true,
  ...props
}: {
  title: string;
  description?: ReactNode;
  cols?: number;
  children: ReactNode;
  bordered?: boolean;
}) {
  return <FieldSection {...props} wideAt="md" bordered={bordered} bg={bordered ? "white" : "transparent"} />;
}

function text(props: CustomerSectionProps, field: CustomerField, label: string, extra: object = {}) {
  const value = props.values[field];
  return (
    <TextInput
      key={field}
      label={label}
      value={typeof value === "string" ? value : ""}
      error={props.errors[field] ?? (props.nameMissing === true && NAME_FIELDS.includes(field))}
      disabled={props.disabled}
      onChange={(event) => props.set(field, event.currentTarget.value)}
      {...extra}
    />
  );
}

export function NameSection(props: CustomerSectionProps & { mode: "add" | "edit"; bordered?: boolean }) {
  return (
    <CustomerSection
      title="Name"
      description="At least a first name, last name or company name."
      bordered={props.bordered}
      cols={4}
    >
      {text(props, "first_name", "First name", { "data-autofocus": props.mode === "add" || undefined })}
      {text(props, "last_name", "Last name")}
      {text(props, "company_name", "Company name")}
      {text(props, "customer_no", "Customer number", {
        inputMode: "numeric",
        placeholder: props.mode === "add" ? "Assigned automatically" : undefined,
      })}
    </CustomerSection>
  );
}

export function ContactSection(props: CustomerSectionProps & { bordered?: boolean }) {
  const emailNeeded = needsEmail(props.values.pull_flag, props.values.bi_pull_flag);
  const phone = (field: "phone1" | "phone2" | "phone3", label: string) => (
    <PhoneInput
      label={label}
      value={props.values[field]}
      error={props.errors[field]}
      disabled={props.disabled}
      onChange={(value) => props.set(field, value)}
    />
  );
  return (
    <CustomerSection title="Contact" bordered={props.bordered} cols={4}>
      {phone("phone1", "Phone 1")}
      {phone("phone2", "Phone 2")}
      {phone("phone3", "Phone 3")}
      {text(props, "email", "Email", {
        type: "email",
        withAsterisk: emailNeeded,
      })}
    </CustomerSection>
  );
}

export function AddressSection(
  props: CustomerSectionProps & { kind: "mailing" | "property"; bordered?: boolean },
) {
  const prefix = props.kind === "property" ? "property_" : "";
  const field = (name: string) => `${prefix}${name}` as CustomerField;
  const stateField = field("state") as "state" | "property_state";
  return (
    <CustomerSection
      title={props.kind === "property" ? "Property address" : "Mailing address"}
      description={
        props.kind === "property"
          ? "Where the service is provided, when it differs from the mailing address."
          : "Bills are mailed here. Once started, line 1, city, state and a 5-digit zip are needed."
      }
      bordered={props.bordered}
      cols={3}
    >
      {text(
        props,
        field("address1"),
        props.kind === "property" ? "Property address line 1" : "Address line 1",
      )}
      {text(
        props,
        field("address2"),
        props.kind === "property" ? "Property address line 2" : "Address line 2",
      )}
      {text(
        props,
        field("address3"),
        props.kind === "property" ? "Property address line 3" : "Address line 3",
      )}
      {text(props, field("city"), props.kind === "property" ? "Property city" : "City")}
      <StateSelect
        label={props.kind === "property" ? "Property state" : "State"}
        value={props.values[stateField]}
        error={props.errors[stateField]}
        disabled={props.disabled}
        onChange={(value) => props.set(stateField, value)}
      />
      {text(props, field("zip"), props.kind === "property" ? "Property zip" : "Zip", {
        inputMode: "numeric",
        maxLength: 5,
      })}
    </CustomerSection>
  );
}

/**
 * The Autopay switch: only for a saved customer whose client has a payment key ("hidden" otherwise,
 * as on Add Customer); the server refuses autopay without a stored method, so it waits for one.
 */
export type AutopayOption = "hidden" | "available" | "needs-method";

export function BillingSection(
  props: CustomerSectionProps & { bordered?: boolean; autopay?: AutopayOption },
) {
  const { values, errors, set, disabled } = props;
  const select = (
    field: "pull_flag" | "bi_pull_flag" | "finance_flag" | "tax_status" | "pull_explanation",
    label: string,
    data: { value: string; label: string }[],
    description?: string,
  ) => (
    <Select
      label={label}
      description={description}
      data={data}
      value={values[field]}
      error={errors[field]}
      disabled={disabled}
      allowDeselect={false}
      onChange={(value) => {
        if (value === null) return;
        set(field, value);
        // The invoice flag follows the statement flag (E gives E, M gives B, else M); it can be changed after.
        if (field === "pull_flag") set("bi_pull_flag", deriveBiPullFlag(value as PullFlag));
      }}
    />
  );
  return (
    <CustomerSection title="Billing" bordered={props.bordered} cols={3}>
      {select("pull_flag", "Statement flag", PULL_FLAG_OPTIONS, "How statements are delivered")}
      {select("bi_pull_flag", "Invoice flag", BI_PULL_FLAG_OPTIONS, "How invoices are delivered")}
      {select("finance_flag", "Finance flag", FINANCE_OPTIONS, "Late fees on overdue balances")}
      {select("tax_status", "Tax status", TAX_OPTIONS)}
      {select("pull_explanation", "Pull explanation", PULL_EXPLANATION_OPTIONS, "For pulled statements")}
      <TextInput
        label="Open date"
        type="date"
        description={values.open_date ? undefined : "Today when left empty"}
        value={values.open_date}
        error={errors.open_date}
        disabled={disabled}
        onChange={(event) => set("open_date", event.currentTarget.value)}
      />
      {props.autopay === undefined || props.autopay === "hidden" ? null : (
        <Switch
          label="Autopay"
          description={
            props.autopay === "needs-method" && !values.autopay_flag
              ? "Store a card or bank account first (Payments tab)"
              : "Charge each statement's amount due to the stored method"
          }
          checked={values.autopay_flag}
          disabled={disabled || (props.autopay === "needs-method" && !values.autopay_flag)}
          onChange={(event) => set("autopay_flag", event.currentTarget.checked)}
          mt="xs"
        />
      )}
    </CustomerSection>
  );
}

export function MessagesSection(props: CustomerSectionProps & { bordered?: boolean }) {
  const { values, errors, set, disabled } = props;
  const area = (
    field: "message" | "message_internal" | "message_field",
    label: string,
    description: string,
  ) => (
    <Textarea
      label={label}
      description={description}
      autosize
      minRows={2}
      maxRows={6}
      value={values[field]}
      error={errors[field]}
      disabled={disabled}
      onChange={(event) => set(field, event.currentTarget.value)}
    />
  );
  return (
    <CustomerSection title="Messages" bordered={props.bordered} cols={2}>
      {area("message", "Statement message", "Printed on this customer's bills")}
      {text(props, "message_duration", "Message duration", {
        inputMode: "numeric",
        description: "Billing cycles to print the message for",
      })}
      {area("message_internal", "Internal note", "Staff only; never printed")}
      {area("message_field", "Message field", "Extra message line for this customer")}
    </CustomerSection>
  );
}
