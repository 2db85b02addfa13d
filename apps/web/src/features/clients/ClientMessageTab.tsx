import { Stack, TextInput, Textarea } from "@mantine/core";
import { ClientSection } from "./ClientSection";
import type { ClientForm } from "./client-form";

export const TERMS_MAX_LENGTH = 20;

export function ClientMessageTab({ form }: { form: ClientForm }) {
  const terms = form.values.terms_message;
  return (
    <Stack gap="md">
      <ClientSection title="On every bill" cols={2}>
        <TextInput
          label="Terms"
          description={`${terms.trim().length} of ${TERMS_MAX_LENGTH} characters, e.g. "Due on receipt"`}
          {...form.text("terms_message")}
        />
        <TextInput
          label="Due in (days)"
          description="Days from a statement's date to its due date; 0 is due on receipt. The terms text is only printed."
          inputMode="numeric"
          {...form.text("due_days")}
        />
        <TextInput label="Bill message line 1" {...form.text("bill_message_line_1")} />
        <TextInput label="Bill message line 2" {...form.text("bill_message_line_2")} />
        <TextInput label="Bill message line 3" {...form.text("bill_message_line_3")} />
      </ClientSection>
      <ClientSection title="Other messages" cols={3}>
        <Textarea label="Info message" autosize minRows={3} maxRows={8} {...form.text("info_message")} />
        <Textarea
          label="Bulk insert message"
          description="Printed on the bulk insert sent with the bills."
          autosize
          minRows={3}
          maxRows={8}
          {...form.text("bi_message")}
        />
        <Textarea
          label="Client message"
          description="Shown to this client's users under the notification bell."
          autosize
          minRows={3}
          maxRows={8}
          {...form.text("client_message")}
        />
      </ClientSection>
    </Stack>
  );
}
