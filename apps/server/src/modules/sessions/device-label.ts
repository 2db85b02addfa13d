import Bowser from "bowser";

/** A readable device from a user agent: "Chrome on Linux", "Safari on iOS", or "Unknown device". */
export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`.slice(0, 120);
  return (browser ?? os ?? userAgent.split(/[\s/]/)[0] ?? "Unknown device").slice(0, 120);
}
