import { Button, Card, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import { useClientContext } from "../../shared/client-context";

/** Account Reports' way to the gateway reconciliation (mounted with one line on that page). */
export function ReconciliationReportCard() {
  const { withClient } = useClientContext();
  return (
    <Card withBorder padding="lg" component="section" aria-label="Gateway reconciliation">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <div style={{ flex: "1 1 320px" }}>
          <Text fw={600}>Gateway reconciliation</Text>
          <Text size="sm" c="dimmed">
            Each day, what BluePay settled against the payments in the books, and every difference.
          </Text>
        </div>
        <Button component={Link} to={withClient("/reconciliation")} variant="default">
          Open reconciliation
        </Button>
      </Group>
    </Card>
  );
}
