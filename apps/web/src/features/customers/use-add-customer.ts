import {
  RECURRING_REQUIRED_MESSAGE,
  STORED_AMOUNT_REQUIRED_MESSAGE,
  type CustomerRecord,
} from "@cyclebill/domain";
import { notifications } from "@mantine/notifications";
import { useRef, useState } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import {
  emptyRecurringDraft,
  emptyStoredDraft,
  validateRecurringDraft,
  validateStoredDraft,
  type DraftErrors,
  type RecurringDraft,
  type RecurringField,
  type RecurringValues,
  type StoredDraft,
  type StoredField,
  type StoredValues,
} from "./charge-drafts";
import { customerLabel } from "./CustomerSelect";
import { useFullCreateCustomer } from "./customer-api";
import type { SetCustomerField } from "./CustomerFields";
import {
  PROPERTY_ADDRESS_FIELDS,
  emptyCustomerValues,
  serverErrors,
  validateCustomer,
  type CustomerFieldErrors,
  type CustomerFormValues,
} from "./customer-form";

export type DraftRow<D, K extends string> = { key: number; draft: D; errors: DraftErrors<K> };
export type AddCustomerSection = "property" | "messages" | "recurring" | "stored" | "groups";

const FIX_MARKED_FIELDS = "Please correct the marked fields.";

/**
 * The Add Customer form's state and save: the customer's fields, its draft recurring charges and
 * stored amounts, its groups, which folded sections are open, and the problems of the last try.
 */
export function useAddCustomer(
  clientId: number,
  onSaved: (customer: CustomerRecord, andNew: boolean) => void,
) {
  const create = useFullCreateCustomer(clientId);
  const [values, setValues] = useState<CustomerFormValues>(emptyCustomerValues);
  const [errors, setErrors] = useState<CustomerFieldErrors>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [recurring, setRecurring] = useState<DraftRow<RecurringDraft, RecurringField>[]>([]);
  const [stored, setStored] = useState<DraftRow<StoredDraft, StoredField>[]>([]);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [open, setOpen] = useState<AddCustomerSection[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [pendingAction, setPendingAction] = useState<"save" | "new" | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const set: SetCustomerField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const openSections = (sections: AddCustomerSection[]) =>
    setOpen((current) => [...current, ...sections.filter((section) => !current.includes(section))]);

  const addRecurring = () => {
    setRecurring((rows) => [...rows, { key: nextKey, draft: emptyRecurringDraft(), errors: {} }]);
    setNextKey((key) => key + 1);
  };
  const addStored = () => {
    setStored((rows) => [...rows, { key: nextKey, draft: emptyStoredDraft(), errors: {} }]);
    setNextKey((key) => key + 1);
  };

  const submit = (andNew: boolean) => {
    const customer = validateCustomer(values, "add");
    const messages = customer.ok ? [] : [...customer.formErrors];
    setErrors(customer.ok ? {} : customer.fieldErrors);

    const charges: RecurringValues[] = [];
    const checkedRecurring = recurring.map((row) => {
      const result = validateRecurringDraft(row.draft);
      if (result.ok) charges.push(result.data);
      return { ...row, errors: result.ok ? {} : result.errors };
    });
    setRecurring(checkedRecurring);
    const recurringMessages = checkedRecurring.flatMap((row) => Object.values(row.errors));
    if (recurringMessages.includes(RECURRING_REQUIRED_MESSAGE)) messages.push(RECURRING_REQUIRED_MESSAGE);

    const amounts: StoredValues[] = [];
    const checkedStored = stored.map((row) => {
      const result = validateStoredDraft(row.draft);
      if (result.ok) amounts.push(result.data);
      return { ...row, errors: result.ok ? {} : result.errors };
    });
    setStored(checkedStored);
    const storedMessages = checkedStored.flatMap((row) => Object.values(row.errors));
    if (storedMessages.includes(STORED_AMOUNT_REQUIRED_MESSAGE))
      messages.push(STORED_AMOUNT_REQUIRED_MESSAGE);

    // Open the folded sections that hold a problem.
    const fieldErrors = customer.ok ? {} : customer.fieldErrors;
    const toOpen: AddCustomerSection[] = [];
    if (PROPERTY_ADDRESS_FIELDS.some((field) => fieldErrors[field])) toOpen.push("property");
    if (["message", "message_duration", "message_internal", "message_field"].some((f) => f in fieldErrors))
      toOpen.push("messages");
    if (recurringMessages.length > 0) toOpen.push("recurring");
    if (storedMessages.length > 0) toOpen.push("stored");
    openSections(toOpen);

    if (!customer.ok || recurringMessages.length > 0 || storedMessages.length > 0) {
      setProblems(messages.length > 0 ? messages : [FIX_MARKED_FIELDS]);
      showFirstProblem(formRef.current);
      return;
    }
    setProblems([]);
    setPendingAction(andNew ? "new" : "save");
    create.mutate(
      {
        customer: customer.data,
        recurring_charges: charges,
        stored_amounts: amounts,
        group_ids: groupIds.map(Number),
      },
      {
        onSuccess: (saved) => {
          notifications.show({ color: "teal", message: `Customer ${customerLabel(saved)} was added.` });
          onSaved(saved, andNew);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) {
            const fromServer = serverErrors(error.body);
            setErrors(fromServer.fieldErrors);
            setProblems(fromServer.formErrors.length > 0 ? fromServer.formErrors : [FIX_MARKED_FIELDS]);
          } else {
            setProblems([describeApiError(error)]);
          }
        },
        onSettled: () => setPendingAction(null),
      },
    );
  };

  return {
    formRef,
    values,
    errors,
    set,
    problems,
    recurring,
    setRecurring,
    addRecurring,
    stored,
    setStored,
    addStored,
    groupIds,
    setGroupIds,
    open,
    setOpen,
    submit,
    pendingAction,
    creating: create.isPending,
  };
}

/** Brings the first marked field into view once the errors have rendered (sections may be opening). */
function showFirstProblem(form: HTMLFormElement | null) {
  window.setTimeout(() => {
    form?.querySelector('[aria-invalid="true"]')?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, 250);
}
