import type { CustomerRecord } from "@cyclebill/domain";
import { useEffect, useState } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { useUpdateCustomer } from "./customer-api";
import type { SetCustomerField } from "./CustomerFields";
import {
  keepStoredNoPhone,
  serverErrors,
  validateCustomer,
  valuesFromRecord,
  type CustomerFieldErrors,
  type CustomerFormValues,
} from "./customer-form";

/** How long the saved alert stays (the spec's saved alerts show for 3 seconds). */
const SAVED_ALERT_MS = 3_000;

export type SaveStatus = { kind: "idle" } | { kind: "saved" } | { kind: "failed"; messages: string[] };

/** The editor's Customer Details: the fields as typed, their problems, and Save Customer. */
export function useCustomerSave(clientId: number, record: CustomerRecord) {
  const [values, setValues] = useState<CustomerFormValues>(() => valuesFromRecord(record));
  const [errors, setErrors] = useState<CustomerFieldErrors>({});
  const [status, setStatus] = useState<SaveStatus>({ kind: "idle" });
  const update = useUpdateCustomer(clientId, record.id);
  // Removing the stored method (Payments tab) ends autopay on the server: the form follows, so a
  // later save does not send a switch the server would refuse.
  const [serverAutopay, setServerAutopay] = useState(record.autopay_flag);
  if (serverAutopay !== record.autopay_flag) {
    setServerAutopay(record.autopay_flag);
    if (!record.autopay_flag) setValues((current) => ({ ...current, autopay_flag: false }));
  }

  useEffect(() => {
    if (status.kind !== "saved") return;
    const timer = window.setTimeout(() => setStatus({ kind: "idle" }), SAVED_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  const set: SetCustomerField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const save = () => {
    const result = validateCustomer(values, "edit");
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setStatus({
        kind: "failed",
        messages: result.formErrors.length > 0 ? result.formErrors : ["Please correct the marked fields."],
      });
      return;
    }
    setStatus({ kind: "idle" });
    update.mutate(keepStoredNoPhone(result.data, record), {
      onSuccess: (saved) => {
        setValues(valuesFromRecord(saved));
        setErrors({});
        setStatus({ kind: "saved" });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          const fromServer = serverErrors(error.body);
          setErrors(fromServer.fieldErrors);
          setStatus({
            kind: "failed",
            messages:
              fromServer.formErrors.length > 0
                ? fromServer.formErrors
                : ["Please correct the marked fields."],
          });
        } else {
          setStatus({ kind: "failed", messages: [describeApiError(error)] });
        }
      },
    });
  };

  // Edited and not saved: what the editor warns about before the user leaves it.
  const saved = valuesFromRecord(record);
  const dirty = (Object.keys(saved) as (keyof CustomerFormValues)[]).some(
    (key) => values[key] !== saved[key],
  );

  return { values, errors, set, status, setStatus, save, saving: update.isPending, dirty };
}
