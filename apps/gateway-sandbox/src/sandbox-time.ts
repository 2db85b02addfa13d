/** "yyyy-mm-dd hh:mm:ss" (UTC) from an ISO time, as BluePay's reports and posts write times. */
export const reportTime = (iso: string): string => iso.slice(0, 19).replace("T", " ");
