import { notifications } from "@mantine/notifications";

export const CODE_SAVED_MESSAGE = "Code saved!";
export const CODE_SAVE_FAILED_MESSAGE = "Failed to create code, make sure form fields are complete";
/** Spec section 8: the failure alert shows for 3 seconds. */
export const CODE_FAILED_ALERT_MS = 3_000;

export function announceCodeSaved(): void {
  notifications.show({ id: "code-saved", color: "teal", message: CODE_SAVED_MESSAGE, autoClose: 3_000 });
}

/** The red alert; `detail` names what the server refused, when it said. */
export function announceCodeSaveFailed(detail?: string): void {
  notifications.show({
    id: "code-save-failed",
    color: "red",
    title: CODE_SAVE_FAILED_MESSAGE,
    message: detail ?? "",
    autoClose: CODE_FAILED_ALERT_MS,
  });
}
