import {
  NAME_REQUIRED_MESSAGE,
  RECURRING_REQUIRED_MESSAGE,
  STORED_AMOUNT_REQUIRED_MESSAGE,
} from "@cyclebill/domain";
import {
  Accordion,
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  Group,
  List,
  MultiSelect,
  Paper,
  Stack,
  Text,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
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
import type { CustomerRecord } from "@cyclebill/domain";
import { useGroupOptions, useUnitsOfMeasure } from "./customer-children-api";
import {
  AddressSection,
  BillingSection,
  ContactSection,
  MessagesSection,
  NameSection,
  type SetCustomerField,
} from "./CustomerFields";
import {
  PROPERTY_ADDRESS_FIELDS,
  emptyCustomerValues,
  serverErrors,
  validateCustomer,
  type CustomerFieldErrors,
  type CustomerFormValues,
} from "./customer-form";
import { RecurringDraftInputs, StoredDraftInputs } from "./DraftEditors";

type Row<D, K extends string> = { key: number; draft: D; errors: DraftErrors<K> };

const FIX_MARKED_FIELDS = "Please correct the marked fields.";

type Section = "property" | "messages" | "recurring" | "stored" | "groups";

export type AddCustomerFormProps = {
  clientId: number;
  /** After a save: `andNew` when the user chose Save and New (the form is already blank again). */
  onSaved: (customer: CustomerRecord, andNew: boolean) => void;
  onCancel: () => void;
  /** Sticks the buttons to the bottom of a scrolling dialog. */
  stickyFooter?: boolean;
};

/**
 * Add Customer: every customer field with the spec's defaults, and optionally its first recurring
 * charges, stored amounts and groups, all sent in one full-create call (all or nothing).
 * Save closes; Save and New saves and starts again from a blank form.
 */
export function AddCustomerForm(props: AddCustomerFormProps) {
  // A new key after Save and New remounts a blank form (and puts the focus back on First name).
  const [generation, setGeneration] = useState(0);
  return (
    <AddCustomerFormBody
      key={generation}
      {...props}
      onSaved={(customer, andNew) => {
        if (andNew) setGeneration((current) => current + 1);
        props.onSaved(customer, andNew);
      }}
    />
  );
}

function AddCustomerFormBody({ clientId, onSaved, onCancel, stickyFooter }: AddCustomerFormProps) {
  const create = useFullCreateCustomer(clientId);
  const units = useUnitsOfMeasure();
  const groups = useGroupOptions(clientId);
  const [values, setValues] = useState<CustomerFormValues>(emptyCustomerValues);
  const [errors, setErrors] = useState<CustomerFieldErrors>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [recurring, setRecurring] = useState<Row<RecurringDraft, RecurringField>[]>([]);
  const [stored, setStored] = useState<Row<StoredDraft, StoredField>[]>([]);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [open, setOpen] = useState<Section[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [pendingAction, setPendingAction] = useState<"save" | "new" | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const set: SetCustomerField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const openSections = (sections: Section[]) =>
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
    const toOpen: Section[] = [];
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(false);
  };

  const nameMissing =
    problems.includes(NAME_REQUIRED_MESSAGE) &&
    !values.first_name.trim() &&
    !values.last_name.trim() &&
    !values.company_name.trim();
  const sectionProps = { values, errors, set, nameMissing };
  const groupData = (groups.data?.results ?? []).map((group) => ({
    value: String(group.id),
    label: group.route_name,
  }));

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Add Customer">
      <Stack gap="md">
        <NameSection {...sectionProps} mode="add" />
        <ContactSection {...sectionProps} />
        <AddressSection {...sectionProps} kind="mailing" />
        <BillingSection {...sectionProps} />

        <Accordion
          multiple
          variant="separated"
          value={open}
          onChange={(value) => setOpen(value as Section[])}
          // No height animation: a picker opened while its panel was still growing would position its
          // list against the clipped panel and keep it hidden.
          transitionDuration={0}
          styles={{ item: { background: "white" } }}
        >
          <Accordion.Item value="property">
            <Accordion.Control>
              <SectionTitle title="Property address" hint="Optional" />
            </Accordion.Control>
            <Accordion.Panel>
              <AddressSection {...sectionProps} kind="property" bordered={false} />
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="messages">
            <Accordion.Control>
              <SectionTitle title="Messages" hint="Optional" />
            </Accordion.Control>
            <Accordion.Panel>
              <MessagesSection {...sectionProps} bordered={false} />
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="recurring">
            <Accordion.Control>
              <SectionTitle title="Recurring charges" count={recurring.length} />
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="sm">
                {recurring.map((row, index) => (
                  <DraftCard
                    key={row.key}
                    title={`Recurring charge ${String(index + 1)}`}
                    onRemove={() => setRecurring((rows) => rows.filter((other) => other.key !== row.key))}
                  >
                    <RecurringDraftInputs
                      clientId={clientId}
                      draft={row.draft}
                      errors={row.errors}
                      onChange={(draft) =>
                        setRecurring((rows) =>
                          rows.map((other) =>
                            other.key === row.key ? { ...other, draft, errors: {} } : other,
                          ),
                        )
                      }
                    />
                  </DraftCard>
                ))}
                <Group>
                  <Button variant="light" size="xs" onClick={addRecurring}>
                    Add recurring charge
                  </Button>
                  {recurring.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      Charges billed automatically on a schedule. They can also be added later in the editor.
                    </Text>
                  ) : null}
                </Group>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="stored">
            <Accordion.Control>
              <SectionTitle title="Stored amounts" count={stored.length} />
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="sm">
                {stored.map((row, index) => (
                  <DraftCard
                    key={row.key}
                    title={`Stored amount ${String(index + 1)}`}
                    onRemove={() => setStored((rows) => rows.filter((other) => other.key !== row.key))}
                  >
                    <StoredDraftInputs
                      clientId={clientId}
                      draft={row.draft}
                      errors={row.errors}
                      units={units}
                      onChange={(draft) =>
                        setStored((rows) =>
                          rows.map((other) =>
                            other.key === row.key ? { ...other, draft, errors: {} } : other,
                          ),
                        )
                      }
                    />
                  </DraftCard>
                ))}
                <Group>
                  <Button variant="light" size="xs" onClick={addStored}>
                    Add stored amount
                  </Button>
                  {stored.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      The code, description and rate offered when entering this customer&apos;s transactions.
                    </Text>
                  ) : null}
                </Group>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="groups">
            <Accordion.Control>
              <SectionTitle title="Groups" count={groupIds.length} />
            </Accordion.Control>
            <Accordion.Panel>
              <MultiSelect
                label="Add to groups"
                description="The customer joins each group at the last position, with standard processing."
                placeholder={groupData.length === 0 ? "No groups yet" : "Choose groups"}
                data={groupData}
                value={groupIds}
                onChange={setGroupIds}
                searchable
                clearable
                comboboxProps={{ withinPortal: true }}
              />
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>

        <Box
          pos={stickyFooter ? "sticky" : undefined}
          bottom={stickyFooter ? 0 : undefined}
          bg="white"
          py="sm"
          style={{ borderTop: "1px solid var(--mantine-color-gray-3)", zIndex: 3 }}
        >
          {problems.length > 0 ? (
            <Alert color="red" title="The customer was not added" mb="sm" role="alert">
              <List size="sm">
                {problems.map((problem) => (
                  <List.Item key={problem}>{problem}</List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel} disabled={create.isPending}>
              Cancel
            </Button>
            <Button
              variant="light"
              onClick={() => submit(true)}
              loading={pendingAction === "new"}
              disabled={create.isPending && pendingAction !== "new"}
            >
              Save and New
            </Button>
            <Button
              type="submit"
              loading={pendingAction === "save"}
              disabled={create.isPending && pendingAction !== "save"}
            >
              Save
            </Button>
          </Group>
        </Box>
      </Stack>
    </form>
  );
}

/** Brings the first marked field into view once the errors have rendered (sections may be opening). */
function showFirstProblem(form: HTMLFormElement | null) {
  window.setTimeout(() => {
    form?.querySelector('[aria-invalid="true"]')?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, 250);
}

function SectionTitle({ title, hint, count }: { title: string; hint?: string; count?: number }) {
  return (
    <Group gap="xs">
      <Text fw={600} size="sm">
        {title}
      </Text>
      {count !== undefined && count > 0 ? (
        <Badge size="sm" variant="light" circle>
          {count}
        </Badge>
      ) : null}
      {hint || count === 0 ? (
        <Text size="xs" c="dimmed">
          {hint ?? "Optional"}
        </Text>
      ) : null}
    </Group>
  );
}

function DraftCard({
  title,
  onRemove,
  children,
}: {
  title: string;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="sm" bg="gray.0" role="group" aria-label={title}>
      <Group justify="space-between" mb={4}>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" aria-hidden>
          {title}
        </Text>
        <CloseButton size="sm" aria-label={`Remove ${title.toLowerCase()}`} onClick={onRemove} />
      </Group>
      {children}
    </Paper>
  );
}
