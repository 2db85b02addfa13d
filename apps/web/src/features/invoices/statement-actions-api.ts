import { statementResendSchema, type StatementResend } from "@cyclebill/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

// A statement's own actions on the Invoices and Statements list (issue 41): reissue a corrected
// version, email it again, queue it for the next print pool. The row offers only what its
// `actions` allow; the server checks again.

export type StatementRowAction = "reissue" | "resend_email" | "add_to_pool";

export type StatementActionResult =
  | { action: "reissue"; statementNum: number }
  | { action: "resend_email" | "add_to_pool"; resend: StatementResend };

export function useStatementAction(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      id: number;
      statementNum: number;
      action: StatementRowAction;
    }): Promise<StatementActionResult> => {
      const answer = await apiFetch<unknown>(`/statements/${String(input.id)}/${input.action}/`, {
        method: "POST",
        query: { client_id: clientId },
        // The screen shows the server's refusal itself.
        handles: [400, 404],
      });
      if (input.action === "reissue") return { action: "reissue", statementNum: input.statementNum };
      return { action: input.action, resend: statementResendSchema.parse(answer) };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["invoices", clientId] }),
  });
}
