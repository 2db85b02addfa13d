// The UI's side of the position rules: users see positions from 1; the API takes stops from 0.

/** The largest position the input offers: the group size, plus one when adding. */
export function maxPosition(groupSize: number, adding: boolean): number {
  return Math.max(1, adding ? groupSize + 1 : groupSize);
}

/**
 * The stop (0-based) to send for what the user typed: a value above the maximum clamps to it,
 * below 1 to 1; empty or not a number means the last place (undefined lets the server decide).
 */
export function stopForPosition(
  input: string | number,
  groupSize: number,
  adding: boolean,
): number | undefined {
  const text = String(input).trim();
  if (!/^-?\d+$/.test(text)) return adding ? undefined : Math.max(0, groupSize - 1);
  const position = Math.min(Math.max(1, Number(text)), maxPosition(groupSize, adding));
  return position - 1;
}
