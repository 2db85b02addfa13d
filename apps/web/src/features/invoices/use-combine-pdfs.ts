import { NO_STATEMENTS_TO_COMBINE_MESSAGE, combinedStatementsFileName } from "@cyclebill/domain";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiDownload, describeApiError } from "../../api/api-client";
import { saveFile } from "../../api/download";
import { today } from "../../lib/business-date";
import type { SortState } from "../../lib/paging";
import {
  COMBINE_LIMIT,
  listedStatements,
  type DocumentFilter,
  type DocumentRow,
  type DocumentSortField,
} from "./documents-api";

export const COMBINE_FAILED_MESSAGE = "Error generating combined PDF";

type CombineRequest =
  | { kind: "selection"; rows: DocumentRow[] }
  | { kind: "listed"; filter: DocumentFilter; sort: SortState<DocumentSortField> };

class NothingToCombine extends Error {}
/** Too many statements for one PDF without a selection: said as is. */
class TooManyToCombine extends Error {}

/**
 * Combine PDFs: the selected statements and invoices (of any customers), or with no selection
 * every statement the filters list, as the spec's Combine Statement PDFs did for one customer.
 */
export function useCombinePdfs(clientId: number) {
  return useMutation({
    mutationFn: async (request: CombineRequest) => {
      let statementIds: number[];
      let invoiceIds: number[] = [];
      if (request.kind === "selection") {
        statementIds = request.rows.filter((row) => row.document === "statement").map((row) => row.id);
        invoiceIds = request.rows.filter((row) => row.document === "invoice").map((row) => row.id);
      } else {
        const listed = await listedStatements(clientId, request.filter, request.sort);
        if (listed.count > COMBINE_LIMIT) {
          throw new TooManyToCombine(
            `${String(listed.count)} statements are listed; select some, or narrow the filters to ${String(COMBINE_LIMIT)} or fewer.`,
          );
        }
        statementIds = listed.ids;
      }
      if (statementIds.length === 0 && invoiceIds.length === 0) throw new NothingToCombine();
      return apiDownload("/statements/combine/", {
        method: "POST",
        body: { client_id: clientId, statement_ids: statementIds, invoice_ids: invoiceIds },
        query: { client_id: clientId },
        // This screen reports the failures itself (a 401 still ends the session).
        handles: "all",
        fallbackName: combinedStatementsFileName(today()),
      });
    },
    onSuccess: (file) => saveFile(file.blob, file.filename),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) return;
      const detail =
        error instanceof NothingToCombine
          ? NO_STATEMENTS_TO_COMBINE_MESSAGE
          : error instanceof TooManyToCombine
            ? error.message
            : describeApiError(error);
      if (detail === NO_STATEMENTS_TO_COMBINE_MESSAGE) {
        notifications.show({ color: "yellow", message: NO_STATEMENTS_TO_COMBINE_MESSAGE });
        return;
      }
      notifications.show({ color: "red", title: COMBINE_FAILED_MESSAGE, message: detail, autoClose: 8_000 });
    },
  });
}
