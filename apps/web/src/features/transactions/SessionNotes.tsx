import { Alert, Text } from "@mantine/core";
import { describeSplit, tallyNet, type Tally } from "./tally";

/** Above a transaction table: the last outcome (dismissable), and while adding, what this session added. */
export function SessionNotes(props: {
  message: string | null;
  onDismiss: () => void;
  adding: boolean;
  tally: Tally;
}) {
  const { tally } = props;
  return (
    <>
      {props.message ? (
        <Alert color="teal" withCloseButton onClose={props.onDismiss} role="status">
          {props.message}
        </Alert>
      ) : null}
      {props.adding && tally.count > 0 ? (
        <Text size="sm" c="dimmed" aria-live="polite">
          Added this session: {tally.count} · {describeSplit(tally.charges, tally.credits, tallyNet(tally))}
        </Text>
      ) : null}
    </>
  );
}
