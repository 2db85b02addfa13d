import { randomBytes } from "node:crypto";
import type { CodeType } from "@cyclebill/domain";

// The demo's fixed material: its two clients, their codes, the names and streets its customers are
// made of, and the small helpers (a seeded random, demo dates and amounts) every seeding step shares.

export type DemoClient = {
  clientNo: number;
  clientName: string;
  domain: string;
  city: string;
  state: string;
  zip: string;
  normalCycle: number;
  financeFlag: string;
  groups: [string, string];
  serviceName: string;
};

export const demoClients: DemoClient[] = [
  {
    clientNo: 1001,
    clientName: "Greenway Lawn & Garden",
    domain: "greenway.example",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    normalCycle: 5,
    financeFlag: "1",
    groups: ["North route", "South route"],
    serviceName: "Weekly lawn service",
  },
  {
    clientNo: 1002,
    clientName: "Harbor Water Co-op",
    domain: "harborwater.example",
    city: "Portland",
    state: "ME",
    zip: "04101",
    normalCycle: 15,
    financeFlag: "N",
    groups: ["Harbor district", "Hillside district"],
    serviceName: "Monthly water service",
  },
];

// Every code has a short name (the Codes list and pickers show it) and a longer description.
export const demoCodes: {
  code: number;
  codeName: string;
  description: string;
  codeType: CodeType;
  taxable?: boolean;
}[] = [
  { code: -4, codeName: "Previous balance", description: "Previous balance", codeType: "info" },
  { code: -3, codeName: "Reversal", description: "Reversal", codeType: "adjust" },
  { code: -2, codeName: "Void", description: "Void", codeType: "adjust" },
  { code: -1, codeName: "Late fee", description: "Late fee", codeType: "charge" },
  { code: 100, codeName: "Service", description: "Monthly service", codeType: "charge" },
  { code: 110, codeName: "Extra visit", description: "Extra service visit", codeType: "charge" },
  { code: 120, codeName: "Materials", description: "Materials", codeType: "charge", taxable: true },
  { code: 130, codeName: "Rental", description: "Equipment rental", codeType: "charge" },
  { code: 200, codeName: "Check", description: "Payment - check", codeType: "payment" },
  { code: 210, codeName: "Card", description: "Payment - card", codeType: "payment" },
  { code: 300, codeName: "Credit adj.", description: "Credit adjustment", codeType: "adjust" },
  { code: 310, codeName: "Debit adj.", description: "Debit adjustment", codeType: "debit" },
  { code: 400, codeName: "Loyalty", description: "Loyalty discount", codeType: "flat_discount" },
  { code: 410, codeName: "Senior 10%", description: "Senior discount 10%", codeType: "percent_discount" },
  { code: 900, codeName: "Note", description: "Note to customer", codeType: "info" },
];

export const firstNames = [
  "Ava",
  "Ben",
  "Carla",
  "Dev",
  "Elena",
  "Frank",
  "Grace",
  "Hector",
  "Ines",
  "Jamal",
  "Kira",
  "Liam",
];
export const lastNames = [
  "Anders",
  "Brooks",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fischer",
  "Garcia",
  "Hughes",
  "Ito",
  "Jensen",
];
export const companies = [
  "Maple Street Dental",
  "Riverside Diner",
  "Oak & Iron Works",
  "Bluebird Bakery",
  "Summit Storage",
];
export const streets = [
  "Maple St",
  "Oak Ave",
  "Cedar Ln",
  "Elm St",
  "Lakeview Dr",
  "Hill Rd",
  "Park Pl",
  "Mill Rd",
];
// Statement flags with the weight each gets among the demo customers.
export const pullFlags = ["A", "A", "A", "A", "A", "E", "E", "M", "M", "T", "P", "N", "L"];

/** A small deterministic generator, so every demo database has the same customers and amounts. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoPassword(): string {
  return randomBytes(12).toString("base64url");
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function dayOfMonth(monthsAgo: number, day: number, now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, day, 15, 0, 0));
}

/** Whole-cent amount in [min, max] as a decimal string, from integer cents (no floating point money). */
export function centsBetween(random: () => number, min: number, max: number): string {
  const cents = min * 100 + Math.floor(random() * (max - min) * 100);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
