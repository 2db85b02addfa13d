import { Button, Card, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import { useClientContext } from "../../shared/client-context";

/** Reports' way to the audit trail, for owners and admins. */
export function AuditReportCard() {
  const { withClient } = useClientContext();
  return (
    <Card withBorder padding="lg" component="section" aria-label="Audit trail">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <div style={{ flex: "1 1 320px" }}>
          <Text fw={600}>Audit trail</Text>
          <Text size="sm" c="dimmed">
            Who changed what, when and from where, with each field before and after.
          </Text>
        </div>
        <Button component={Link} to={withClient("/audit")} variant="default">
          Open audit trail
        </Button>
      </Group>
    </Card>
  );
}
