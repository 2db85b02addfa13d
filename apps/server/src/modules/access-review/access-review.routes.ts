import {
  accessReviewPageSchema,
  accessReviewQuerySchema,
  accessReviewRecordBodySchema,
  accessReviewRecordListQuerySchema,
  accessReviewRecordPageSchema,
  accessReviewRecordSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { accessReviewCsv, listAccessReview } from "./list-access-review.js";
import { listAccessReviews, recordAccessReview } from "./record-access-review.js";

const tags = ["Access"];

export function registerAccessReviewRoutes(router: Router): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    name: "listAccessReview",
    method: "GET",
    url: "/api/access-review/",
    summary:
      "The access review: each user with their role, client, whether active, proven email, second factors (authenticator app, recovery codes left, passkeys), whether one is required, last sign-in and open sessions. Owners read their own client's; provider admins any client's (client_id) or, without client_id, provider-wide (the admins and every client's users); staff get 403. Ordering: name, email, role, client, last_sign_in, open_sessions; format=csv downloads every user, headed by the review's business date",
    tags,
    access: "user",
    query: accessReviewQuerySchema,
    response: accessReviewPageSchema,
    handle: async ({ auth, query, reply }) => {
      if (query.format !== "csv") return listAccessReview(db, auth, query, config.adminSecondFactor);
      await sendDownload(
        reply,
        await accessReviewCsv(db, auth, query, config.adminSecondFactor),
        "text/csv; charset=utf-8",
      );
      return reply;
    },
  });

  defineRoute(router, {
    name: "listAccessReviewRecords",
    method: "GET",
    url: "/api/access-review/reviews/",
    summary:
      "Past access reviews of a scope (client_id, or provider-wide for an admin without it), newest first: who, when, the note and how many users were listed",
    tags,
    access: "user",
    query: accessReviewRecordListQuerySchema,
    response: accessReviewRecordPageSchema,
    handle: ({ auth, query }) => listAccessReviews(db, auth, query),
  });

  defineRoute(router, {
    name: "recordAccessReview",
    method: "POST",
    url: "/api/access-review/reviews/",
    summary:
      "Record that you reviewed access (client_id, or provider-wide for an admin without it), with a note of what you checked; kept with who, when and the user counts, and in the audit trail",
    tags,
    access: "user",
    body: accessReviewRecordBodySchema,
    response: accessReviewRecordSchema,
    successStatus: 201,
    handle: ({ auth, body }) => recordAccessReview(db, auth, body),
  });
}
