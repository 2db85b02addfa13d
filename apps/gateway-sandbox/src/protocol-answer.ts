// How the sandbox writes an answer: name=value pairs, %-encoded as BluePay writes them. A refused
// request answers STATUS=E with its reason and HTTP 400 (BluePay's clients read the body of an
// error status too).

export type ProtocolAnswer = { httpStatus: 200 | 400; body: string };

/** A request the gateway refuses; thrown by the rules, answered as STATUS=E. */
export class Refusal extends Error {}

export function refuse(message: string): never {
  throw new Refusal(message);
}

export function encodeAnswer(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
}

export function refusalAnswer(error: unknown): ProtocolAnswer {
  if (!(error instanceof Refusal)) throw error;
  const pairs = [
    ["TRANS_ID", ""],
    ["STATUS", "E"],
    ["MESSAGE", error.message],
  ] as const;
  return { httpStatus: 400, body: encodeAnswer(pairs) };
}
