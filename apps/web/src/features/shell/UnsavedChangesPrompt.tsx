import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useEffect } from "react";
import { useBlocker } from "react-router";

/**
 * Warns before unsaved edits are lost: a dialog when the app would go to another screen (the same
 * screen with another tab or query keeps the edits, so it passes), and the browser's own prompt on
 * reload, close or a typed address.
 */
export function UnsavedChangesPrompt({ when, what = "changes" }: { when: boolean; what?: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [when]);

  const blocked = blocker.state === "blocked";
  return (
    <Modal opened={blocked} onClose={() => blocker.reset?.()} title="Leave without saving?" centered>
      <Stack gap="md">
        <Text size="sm">You have unsaved {what}. If you leave this page now, they are lost.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Stay on this page
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
