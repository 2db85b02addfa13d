// Counts with their nouns ("1 transaction", "2 transactions", "1 entry"): the one place the web app
// picks a singular or plural, by the language's own rule (Intl.PluralRules), so no label reads
// "1 transactions".

const rules = new Intl.PluralRules("en-US");

/** A noun's two forms; `other` defaults to `one` + "s" (give it for "entry" → "entries"). */
export type Noun = { one: string; other?: string };

/** The noun's form for this count: `one` for 1, `other` for 0, 2, 1.5 … */
export function plural(count: number, one: string, other = `${one}s`): string {
  return rules.select(count) === "one" ? one : other;
}

/** The count (grouped: 1,204) and its noun in the right form. */
export function countOf(count: number, one: string, other?: string): string {
  return `${count.toLocaleString("en-US")} ${plural(count, one, other)}`;
}

/** plural() for a Noun. */
export function nounFor(count: number, noun: Noun): string {
  return plural(count, noun.one, noun.other);
}
