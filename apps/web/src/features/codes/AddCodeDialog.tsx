import { DESCRIPTION_MAX_LENGTH } from "@cyclebill/domain";
import { Button, Checkbox, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { CODE_TYPE_OPTIONS } from "../../shared/codes";
import type { FieldErrors } from "../auth/form-validation";
import { announceCodeSaveFailed, announceCodeSaved } from "./code-messages";
import { isCodeType, saveErrors, validateDraft, type CodeDraft, type CodeField } from "./code-draft";
import { useSaveCode } from "./codes-api";

/**
 * Add Code. The dialog stays open after a save for the next code: the number goes up by one, the
 * name and description clear, and the type and taxable are kept (spec section 4).
 */
export function AddCodeDialog({
  clientId,
  nextCode,
  onClose,
}: {
  clientId: number;
  /** The number to suggest first. */
  nextCode: number;
  onClose: () => void;
}) {
  const save = useSaveCode(clientId);
  const [draft, setDraft] = useState<CodeDraft>({
    code: String(nextCode),
    code_name: "",
    description: "",
    code_type: "",
    taxable: false,
  });
  const [errors, setErrors] = useState<FieldErrors<CodeField>>({});
  const [lastSaved, setLastSaved] = useState<string | null>(null);

  const change = <K extends CodeField>(field: K, value: CodeDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      announceCodeSaveFailed();
      return;
    }
    setErrors({});
    save.mutate(
      { id: null, body: result.data },
      {
        onSuccess: (saved) => {
          announceCodeSaved();
          setLastSaved(
            `${String(saved.code)} · ${saved.description || saved.code_name || "(no description)"}`,
          );
          setDraft((current) => ({
            ...current,
            code: String(saved.code + 1),
            code_name: "",
            description: "",
          }));
        },
        onError: (error) => {
          const refused = saveErrors(error);
          setErrors(refused.errors);
          announceCodeSaveFailed(refused.detail);
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Add Code" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label="Code"
              withAsterisk
              inputMode="numeric"
              data-autofocus
              value={draft.code}
              error={errors.code}
              onChange={(event) => change("code", event.currentTarget.value)}
            />
            <Select
              label="Type"
              withAsterisk
              placeholder="Choose a type"
              data={CODE_TYPE_OPTIONS}
              value={draft.code_type === "" ? null : draft.code_type}
              error={errors.code_type}
              onChange={(value) => change("code_type", isCodeType(value) ? value : "")}
            />
          </Group>
          <TextInput
            label="Name"
            value={draft.code_name}
            error={errors.code_name}
            onChange={(event) => change("code_name", event.currentTarget.value)}
          />
          <TextInput
            label="Description"
            description={`${draft.description.trim().length} of ${DESCRIPTION_MAX_LENGTH} characters; printed on the bill`}
            value={draft.description}
            error={errors.description}
            onChange={(event) => change("description", event.currentTarget.value)}
          />
          <Checkbox
            label="Taxable"
            checked={draft.taxable}
            onChange={(event) => change("taxable", event.currentTarget.checked)}
          />
          <Group justify="space-between" mt="sm" wrap="nowrap">
            <Text size="xs" c="dimmed" aria-live="polite" truncate="end">
              {lastSaved ? `Last saved: ${lastSaved}` : "The dialog stays open for the next code."}
            </Text>
            <Group gap="sm" wrap="nowrap">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save Code
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
