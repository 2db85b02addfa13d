import { Button, Modal, Text } from "@mantine/core";
import { useState } from "react";
import { CardRunResults } from "./CardRunResults";

/** Admin Processing: a run part's autopay card run (charged after its statements), opened in a dialog. */
export function AutopayRunButton(props: { clientId: number; clientName: string; runId: number | null }) {
  const { clientId, clientName, runId } = props;
  const [open, setOpen] = useState(false);
  if (runId === null) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setOpen(true)}>
        Autopay results
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Autopay: ${clientName}`} size="xl" centered>
        {open ? <CardRunResults clientId={clientId} runId={runId} /> : null}
      </Modal>
    </>
  );
}
