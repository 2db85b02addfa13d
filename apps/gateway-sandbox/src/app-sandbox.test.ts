import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startAppSandbox } from "./app-sandbox.js";
import type { Sandbox } from "./bluepay-sandbox.js";

// A second `npm start` meets the first one's sandbox on the default port (issue 33.7).
let holder: Server | undefined;
let sandbox: Sandbox | undefined;

async function holdAPort(): Promise<number> {
  holder = createServer();
  await new Promise<void>((resolve) => holder?.listen(0, "127.0.0.1", resolve));
  const address = holder.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)));
  holder = undefined;
});

describe("the sandbox npm start runs", () => {
  it("starts on a free port when the default is taken, and says which", async () => {
    const taken = await holdAPort();
    const started = await startAppSandbox({ port: taken, host: "127.0.0.1" }, false);
    sandbox = started.sandbox;
    expect(sandbox.port).not.toBe(taken);
    expect(started.notice).toBe(
      `Port ${taken}, the BluePay sandbox's default, is in use (another Cyclebill?): the sandbox took port ` +
        `${sandbox.port} instead. Set BLUEPAY_SANDBOX_PORT to choose its port.`,
    );
    const answer = await fetch(`${sandbox.url}/sandbox/faults`);
    expect(answer.status).toBe(200);
  });

  it("refuses a chosen port that is taken, naming it and how to choose another", async () => {
    const taken = await holdAPort();
    await expect(startAppSandbox({ port: taken, host: "127.0.0.1" }, true)).rejects.toThrow(
      `BLUEPAY_SANDBOX_PORT ${taken} is in use: set BLUEPAY_SANDBOX_PORT to a free port, or BLUEPAY_URL to a gateway.`,
    );
  });

  it("starts quietly on a free default port", async () => {
    const started = await startAppSandbox({ port: 0, host: "127.0.0.1" }, false);
    sandbox = started.sandbox;
    expect(started.notice).toBeNull();
  });
});
