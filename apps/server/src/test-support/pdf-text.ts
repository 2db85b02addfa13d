import { spawn } from "node:child_process";

/** The text of a PDF in reading layout, by poppler's pdftotext, so tests can check what is printed. */
export function pdfText(bytes: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("pdftotext", ["-layout", "-", "-"]);
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`pdftotext exited with ${String(code)}`)),
    );
    child.stdin.end(bytes);
  });
}
