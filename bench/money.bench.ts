// Micro-benchmark for the bigint money core: run with `npm run bench` (from the repo root or bench/).
import { multiplyRateByQuantity, sumAmounts } from "@cyclebill/domain";

const COUNT = 1_000_000;

// Deterministic integer-only inputs, so runs are comparable and no floating point touches the values.
function amountAt(i: number): string {
  const cents = (i * 7919) % 10_000_000;
  const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return i % 5 === 0 ? `-${text}` : text;
}

function rateAt(i: number): string {
  const units = (i * 104_729) % 100_000_000;
  return `${Math.floor(units / 100_000)}.${String(units % 100_000).padStart(5, "0")}`;
}

function quantityAt(i: number): string {
  return i % 3 === 0 ? String((i % 40) + 1) : `${i % 12}.${String(i % 1000).padStart(3, "0")}`;
}

function report(label: string, unit: string, count: number, ms: number): void {
  const perSecond = count / (ms / 1000) / 1e6;
  console.log(`${label}: ${count} ${unit} in ${Math.round(ms)} ms (${perSecond.toFixed(2)} M/s)`);
}

const amounts = Array.from({ length: COUNT }, (_, i) => amountAt(i));
const rates = Array.from({ length: COUNT }, (_, i) => rateAt(i));
const quantities = Array.from({ length: COUNT }, (_, i) => quantityAt(i));

// Warm up so the JIT has compiled the hot paths before timing.
sumAmounts(amounts.slice(0, 50_000));
for (let i = 0; i < 50_000; i++) multiplyRateByQuantity(rates[i] ?? "0", quantities[i] ?? "0");

let start = performance.now();
const total = sumAmounts(amounts);
report("sumAmounts", "values", COUNT, performance.now() - start);

start = performance.now();
const lineAmounts: string[] = new Array<string>(COUNT);
for (let i = 0; i < COUNT; i++)
  lineAmounts[i] = multiplyRateByQuantity(rates[i] ?? "0", quantities[i] ?? "0");
report("multiplyRateByQuantity", "pairs", COUNT, performance.now() - start);

// Printing the results keeps the work observable (and doubles as a sanity check between runs).
console.log(`checksums: sum=${total} lines=${sumAmounts(lineAmounts)}`);
