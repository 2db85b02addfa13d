// Help page entries. Answers are plain text; a blank line separates paragraphs.

export type FaqEntry = { id: string; question: string; answer: string };

export const FAQ_ENTRIES: readonly FaqEntry[] = [
  {
    id: "create-invoice",
    question: "How do I create an invoice?",
    answer: `Open Transactions and choose the Create Invoice tab. Pick the customer and the invoice date, then select Create Invoice (the button stays disabled until a customer is chosen). The new invoice opens in its editor.

While the invoice is open, add its lines with Add Transaction: choose a bill code, a description, the quantity and the rate; the amount is the rate times the quantity. You can still change the invoice date and edit or remove lines. When the invoice is complete, close it. A closed invoice can be reopened, and Get PDF downloads it for printing or emailing. Invoices that have already been processed and sent to the customer cannot be deleted.`,
  },
  {
    id: "add-customer",
    question: "How do I add a customer?",
    answer: `Go to Customers, Manage Customers and choose Add Customer, or use the "Add a customer" link on the Home page. Enter at least a first name, a last name or a company name, and a complete mailing address: address line 1, city, state and a 5-digit ZIP code.

If the customer receives statements by email (statement flag E or M) or invoices by email (invoice flag E or B), an email address is required, otherwise they will not get emailed bills. Recurring charges need a code, a rate, a start month and an end month. Save closes the form; Save and New saves the customer and opens a blank form for the next one. New customers are mailed their statements (flag A) and use the client's late fee settings unless you change them.`,
  },
  {
    id: "bill-codes",
    question: "What are bill codes and how do I set them up?",
    answer: `Every transaction uses a bill code, and the code's type decides what the transaction does to the balance: charge, payment, credit adjustment, debit adjustment, flat discount, percent discount, or an information line that carries no amount.

Open Bill Codes and choose Add Code. Enter the code number, a description, the type and whether the code is taxable. After each save the next code number is filled in and the type and taxable setting are kept, so a series of similar codes is quick to enter. Codes with negative numbers are system codes (late fee, void, reversal, previous balance): they cannot be edited and are hidden unless you show system codes. Mass Edit changes the type or the taxable setting of many codes at once.`,
  },
  {
    id: "transactions",
    question: "How do I record charges, payments and adjustments?",
    answer: `Open Transactions. On Search Transactions choose Add Transaction, then pick the customer, the bill code, the service date and the rate (and quantity, when Show Qty and Units is on). Ctrl+Enter saves the row. The bill code's type makes the transaction a charge, a payment or an adjustment.

To charge many customers at once, use Add Group Transactions to post the same code to every customer in a group, or add a transaction for all customers. Search Transactions filters by customer, code, type and dates, shows totals, and downloads the results as a CSV file. Transactions that are already on an invoice are changed from that invoice.`,
  },
  {
    id: "archive-customer",
    question: "How do I archive a customer, and what happens to their balance?",
    answer: `In Manage Customers choose Archive on the customer's row. A customer whose balance is zero is archived as soon as you confirm.

A customer with a non-zero balance becomes pending archived instead; you choose whether billing continues or stops in the meantime. A pending archived customer can still take payments and adjustments but no new charges, and is archived automatically once the balance reaches zero. You can remove the pending archive mark again at any time. The Archived only and Pending archive only filters list these customers.`,
  },
  {
    id: "unarchive-customer",
    question: "Can I unarchive a customer?",
    answer: `Yes. In Manage Customers turn on the Archived only filter and choose Unarchive on the customer's row. The customer returns to the active list, but their transaction history is lost: they start again without their past transactions, so download anything you need to keep before you unarchive.`,
  },
  {
    id: "mass-invoices",
    question: "How do I create an invoice from several selected transactions?",
    answer: `On Transactions, Search Transactions, find the transactions (for example by customer and date) and choose Mass Edit. A Select column appears; tick the transactions you want and choose Make Invoice from Selected. The selected transactions are put on a new invoice, which you can then review, close and send.

In the same mode, Save Changes applies one change (customer, code, description, date, rate, quantity or unit) to all selected transactions. Close Mass Edit returns to normal; leaving the page also ends mass edit.`,
  },
  {
    id: "customer-csv",
    question: "How do I download my customer list as a CSV file?",
    answer: `In Customers, Manage Customers, choose the CSV export button. You receive Customers.zip, which holds a CSV file of the client's customers; open it in Excel or any spreadsheet program. Administrators choose the client first. For a printable overview of balances, use the balance PDF report on the same screen.`,
  },
  {
    id: "selected-customer",
    question: "How do I keep one customer selected while I move between screens?",
    answer: `Use the Customer Select search in the bar under the top bar: type part of the customer's name or number and pick them from the list. The customer stays selected as you move between Customers, Transactions, Invoices & Statements and the other screens, and after a page reload in the same browser tab. Clear the selection with the × in the search box. Choosing another client, or signing out, clears it too.`,
  },
  {
    id: "switch-client",
    question: "I am an administrator. How do I switch between clients?",
    answer: `Use the Client Select search in the bar under the top bar and pick a client by name or number. Every screen then works on that client, and the client appears in the page address (client_id), so bookmarks and shared links open the same client and the browser's Back button returns to the previous one. Client staff and owners always work on their own client and do not see this search.`,
  },
  {
    id: "home-summary",
    question: "Why don't I see the balance summaries on the Home page?",
    answer: `The Accounts Receivable, This month and Your Balance cards are shown to client owners and administrators. Client staff see the customer and transaction counts only. If your account is not yet attached to a client, ask an administrator to attach it.`,
  },
  {
    id: "forgot-password",
    question: "I forgot my password. What do I do?",
    answer: `On the login page choose Forgot password, enter the email you registered with and choose Send Password Reset. The email contains a link to a page where you choose a new password. The link expires; if it no longer works, request a new one.`,
  },
];

/** Every space-separated word must appear (case-insensitively) in the question or in the answer. */
export function filterFaq(entries: readonly FaqEntry[], filter: string): FaqEntry[] {
  const words = filterWords(filter);
  return entries.filter((entry) => {
    const question = entry.question.toLowerCase();
    const answer = entry.answer.toLowerCase();
    return words.every((word) => question.includes(word) || answer.includes(word));
  });
}

export function filterWords(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter(Boolean);
}
