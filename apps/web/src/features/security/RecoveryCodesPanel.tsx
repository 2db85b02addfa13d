import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { showRecoveryCodes } from "./shown-recovery-codes";

/** The ten recovery codes, once: copy or download them, then say they are saved. */
export function RecoveryCodesPanel({ codes }: { codes: readonly string[] }) {
  const text = `Cyclebill recovery codes (each works once)\n\n${codes.join("\n")}\n`;
  const copy = () =>
    void navigator.clipboard
      .writeText(text)
      .then(() => notifications.show({ color: "teal", message: "Recovery codes copied." }))
      .catch(() =>
        notifications.show({ color: "red", message: "Copying failed: select the codes instead." }),
      );
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "cyclebill-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="recovery-codes">
      <Stack gap="sm">
        <Alert color="yellow" title="Save your recovery codes now">
          If you lose your phone, each of these codes signs you in once instead of a code from the app. They
          are shown only this once: keep them somewhere safe, away from your phone.
        </Alert>
        <SimpleGrid
          cols={{ base: 1, xs: 2 }}
          spacing={4}
          component="ul"
          aria-label="Recovery codes"
          p={0}
          m={0}
        >
          {codes.map((code) => (
            <Text key={code} component="li" ff="monospace" fw={600} style={{ listStyle: "none" }}>
              {code}
            </Text>
          ))}
        </SimpleGrid>
        <Group>
          <Button variant="default" onClick={copy}>
            Copy
          </Button>
          <Button variant="default" onClick={download}>
            Download
          </Button>
          <Button onClick={() => showRecoveryCodes(null)}>I saved them</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
