import { Button } from "@mantine/core";

export type EditDeleteButtonsProps = {
  /** What the row is, for the buttons' accessible names: "Edit {subject}", "Delete {subject}". */
  subject: string;
  onEdit: () => void;
  onDelete: () => void;
  disabled?: boolean;
};

/** A table row's Edit and Delete buttons; the caller places them (usually in a right-aligned group). */
export function EditDeleteButtons({ subject, onEdit, onDelete, disabled }: EditDeleteButtonsProps) {
  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Edit ${subject}`}
        disabled={disabled}
        onClick={onEdit}
      >
        Edit
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        color="red"
        aria-label={`Delete ${subject}`}
        disabled={disabled}
        onClick={onDelete}
      >
        Delete
      </Button>
    </>
  );
}
