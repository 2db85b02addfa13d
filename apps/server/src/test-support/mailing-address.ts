/**
 * A complete mailing address (the spec's rule: line 1, city, state, 5-digit zip) for customers a
 * test writes straight to the table: a run holds back a mailed statement without one.
 */
export const TEST_MAILING_ADDRESS = {
  address1: "1 Main St",
  city: "Springfield",
  state: "IL",
  zip: "62701",
} as const;

/** The address of the tenant fixture's clients, and of the customers the customer API tests add. */
export const AUSTIN_ADDRESS = { address1: "1 Main St", city: "Austin", state: "TX", zip: "73301" } as const;
