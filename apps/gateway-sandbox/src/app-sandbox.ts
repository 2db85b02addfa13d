import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";

/**
 * The sandbox `npm start` runs beside the app. When the port was not chosen (BLUEPAY_SANDBOX_PORT
 * unset) and the default is taken — a second instance, another app — it starts on a free port the
 * OS picks and says so, rather than stopping the app from starting; a chosen port that is taken is
 * refused with a message naming it. `notice` is what to tell the user, if anything.
 */
export async function startAppSandbox(
  options: SandboxOptions,
  portChosen: boolean,
): Promise<{ sandbox: Sandbox; notice: string | null }> {
  try {
    return { sandbox: await startSandbox(options), notice: null };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (portChosen)
      throw new Error(
        `BLUEPAY_SANDBOX_PORT ${options.port} is in use: set BLUEPAY_SANDBOX_PORT to a free port, or BLUEPAY_URL to a gateway.`,
      );
    const sandbox = await startSandbox({ ...options, port: 0 });
    return {
      sandbox,
      notice:
        `Port ${options.port}, the BluePay sandbox's default, is in use (another Cyclebill?): the sandbox ` +
        `took port ${sandbox.port} instead. Set BLUEPAY_SANDBOX_PORT to choose its port.`,
    };
  }
}
