import { ACCESS_REVIEW_NOTE_MAX, accessReviewRecordBodySchema } from "@cyclebill/domain";
import { Alert, Button, Card, Group, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { ApiError, describeApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { validateForm, type FieldErrors } from "../auth/form-validation";
import { useRecordAccessReview, type ReviewScope } from "./access-review-api";

/** "Record review": the reader says what they checked; kept with who and when, and in the trail. */
export function RecordReviewCard({ scope, scopeName }: { scope: ReviewScope; scopeName: string }) {
  const record = useRecordAccessReview(scope);
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"note">>({});
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const result = validateForm(accessReviewRecordBodySchema, { note });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    record.mutate(result.data.note, {
      onSuccess: () => {
        setNote("");
        notifications.show({ color: "teal", message: "Review recorded." });
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fields = fieldErrorsFromBody<"note">(error.body, ["note"]);
        setErrors(fields);
        if (Object.keys(fields).length === 0) setProblem(describeApiError(error));
      },
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Record review">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <div>
            <Text fw={600}>Record review</Text>
            <Text size="sm" c="dimmed">
              Once you have checked the list above for {scopeName}, record it: your name, the time and your
              note are kept, and the audit trail shows it.
            </Text>
          </div>
          {problem ? <Alert color="red">{problem}</Alert> : null}
          <Textarea
            label="Note"
            description={`What you checked and what you changed (at most ${ACCESS_REVIEW_NOTE_MAX.toLocaleString("en-US")} characters).`}
            autosize
            minRows={3}
            maxRows={8}
            value={note}
            error={errors.note}
            onChange={(event) => setNote(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={record.isPending}>
              Record review
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
