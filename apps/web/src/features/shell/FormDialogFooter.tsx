import { Alert, Button, Group } from "@mantine/core";

/** The foot of a form in a dialog: why the last save failed (if it did), then Cancel and the submit button. */
export function FormDialogFooter(props: {
  problem: string | null;
  /** The failure's title ("The client was not added"). */
  problemTitle: string;
  submitLabel: string;
  saving: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {props.problem ? (
        <Alert color="red" title={props.problemTitle}>
          {props.problem}
        </Alert>
      ) : null}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={props.saving}>
          {props.submitLabel}
        </Button>
      </Group>
    </>
  );
}
