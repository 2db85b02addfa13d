import { clientCreateSchema } from "@cyclebill/domain";
import { Modal, Stack, Text, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import type { FieldErrors } from "../auth/form-validation";
import { validateForm } from "../auth/form-validation";
import { useCreateClient } from "./client-api";
import type { ClientRecord } from "./client-record";
import { FormDialogFooter } from "../shell/FormDialogFooter";

/** Add Client: a name (at least 3 characters) is all it takes; the number is assigned. */
export function AddClientDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (client: ClientRecord) => void;
}) {
  const create = useCreateClient();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"client_name">>({});
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setName("");
    setErrors({});
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateForm(clientCreateSchema, { client_name: name });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setProblem(null);
    create.mutate(
      { client_name: result.data.client_name },
      {
        onSuccess: (client) => {
          setName("");
          onCreated(client);
        },
        onError: (error) => {
          if (!(error instanceof ApiError) || error.status !== 400) return;
          const fields = fieldErrorsFromBody(error.body, ["client_name"] as const);
          setErrors(fields);
          if (!fields.client_name) setProblem(describeApiError(error));
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Add Client" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Client name"
            withAsterisk
            data-autofocus
            value={name}
            error={errors.client_name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setErrors({});
            }}
          />
          <Text size="xs" c="dimmed">
            The client number is assigned automatically. Fill in the address, messages and rates in the editor
            that opens next.
          </Text>
          <FormDialogFooter
            problem={problem}
            problemTitle="The client was not added"
            submitLabel="Add Client"
            saving={create.isPending}
            onCancel={close}
          />
        </Stack>
      </form>
    </Modal>
  );
}
