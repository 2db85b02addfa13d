import { ActionIcon, Tooltip } from "@mantine/core";
import { RefreshIcon } from "./icons";

/** The refresh icon button of a list ("Refresh clients"), spinning while the list refetches. */
export function RefreshButton({
  label,
  loading,
  onClick,
  size,
}: {
  label: string;
  loading: boolean;
  onClick: () => void;
  size?: "lg";
}) {
  return (
    <Tooltip label="Refresh">
      <ActionIcon variant="default" size={size} aria-label={label} loading={loading} onClick={onClick}>
        <RefreshIcon />
      </ActionIcon>
    </Tooltip>
  );
}
