import { NAME_REQUIRED_MESSAGE, type CustomerRecord } from "@cyclebill/domain";
import { Accordion, Alert, Box, Button, Group, List, MultiSelect, Stack } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { DraftSection, FoldedSection } from "./AddCustomerParts";
import { useUnitsOfMeasure } from "../codes/units-of-measure";
import { useGroupOptions } from "./customer-children-api";
import {
  AddressSection,
  BillingSection,
  ContactSection,
  MessagesSection,
  NameSection,
} from "./CustomerFields";
import { RecurringDraftInputs, StoredDraftInputs } from "./DraftEditors";
import { useAddCustomer, type AddCustomerSection } from "./use-add-customer";

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
  const units = useUnitsOfMeasure();
  const groups = useGroupOptions(clientId);
  const {
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
    creating,
  } = useAddCustomer(clientId, onSaved);

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
          onChange={(value) => setOpen(value as AddCustomerSection[])}
          // No height animation: a picker opened while its panel was still growing would position its
          // list against the clipped panel and keep it hidden.
          transitionDuration={0}
          styles={{ item: { background: "white" } }}
        >
          <FoldedSection value="property" title="Property address" hint="Optional">
            <AddressSection {...sectionProps} kind="property" bordered={false} />
          </FoldedSection>
          <FoldedSection value="messages" title="Messages" hint="Optional">
            <MessagesSection {...sectionProps} bordered={false} />
          </FoldedSection>
          <DraftSection
            value="recurring"
            title="Recurring charges"
            noun="Recurring charge"
            hint="Charges billed automatically on a schedule. They can also be added later in the editor."
            rows={recurring}
            setRows={setRecurring}
            onAdd={addRecurring}
            inputs={(row, onChange) => (
              <RecurringDraftInputs
                clientId={clientId}
                draft={row.draft}
                errors={row.errors}
                onChange={onChange}
              />
            )}
          />
          <DraftSection
            value="stored"
            title="Stored amounts"
            noun="Stored amount"
            hint="The code, description and rate offered when entering this customer's transactions."
            rows={stored}
            setRows={setStored}
            onAdd={addStored}
            inputs={(row, onChange) => (
              <StoredDraftInputs
                clientId={clientId}
                draft={row.draft}
                errors={row.errors}
                units={units}
                onChange={onChange}
              />
            )}
          />
          <FoldedSection value="groups" title="Groups" count={groupIds.length}>
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
          </FoldedSection>
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
            <Button variant="default" onClick={onCancel} disabled={creating}>
              Cancel
            </Button>
            <Button
              variant="light"
              onClick={() => submit(true)}
              loading={pendingAction === "new"}
              disabled={creating && pendingAction !== "new"}
            >
              Save and New
            </Button>
            <Button
              type="submit"
              loading={pendingAction === "save"}
              disabled={creating && pendingAction !== "save"}
            >
              Save
            </Button>
          </Group>
        </Box>
      </Stack>
    </form>
  );
}
