import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

// A software authenticator for tests: makes a passkey (attestation "none", an ES256 key) and signs
// sign-in challenges with it, as a browser would answer navigator.credentials.create() and get().
// Only the WebAuthn structures the server reads are built; CBOR is encoded by hand (small subset).

type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

function cbor(value: CborValue): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter, 0);
  return bytes;
}

/** What the server's options carry that the authenticator reads. */
type CreationOptions = { challenge: string; rp: { id?: string } };
type RequestOptions = { challenge: string; rpId?: string };

export type SoftwarePasskey = {
  credentialId: string;
  /** The browser's answer to navigator.credentials.create() with these options. */
  register: (options: CreationOptions) => RegistrationAnswer;
  /** The browser's answer to navigator.credentials.get(); the counter moves on by one each time. */
  assert: (options: RequestOptions, overrides?: { counter?: number }) => AuthenticationAnswer;
};

export type RegistrationAnswer = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
};

export type AuthenticationAnswer = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string };
  clientExtensionResults: Record<string, never>;
};

/** A new passkey for the given origin (e.g. "http://billing.test", whose host is the RP ID). */
export function softwarePasskey(origin: string): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const rawId = randomBytes(16);
  const credentialId = b64url(rawId);
  const host = new URL(origin).hostname;
  let counter = 0;

  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");

  return {
    credentialId,
    register(options) {
      const jwk = publicKey.export({ format: "jwk" });
      const coseKey = new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]);
      const lengthBytes = Buffer.from([rawId.length >> 8, rawId.length & 0xff]);
      const authData = Buffer.concat([
        sha256(options.rp.id ?? host),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        counterBytes(counter),
        Buffer.alloc(16), // AAGUID: none
        lengthBytes,
        rawId,
        cbor(coseKey),
      ]);
      const attestation = cbor(
        new Map<CborValue, CborValue>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(attestation),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      };
    },
    assert(options, overrides = {}) {
      counter = overrides.counter ?? counter + 1;
      const authData = Buffer.concat([
        sha256(options.rpId ?? host),
        Buffer.from([0x05]), // user present, user verified
        counterBytes(counter),
      ]);
      const data = clientData("webauthn.get", options.challenge);
      const signature = signEs256(privateKey, Buffer.concat([authData, sha256(data)]));
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}

/** ES256 as WebAuthn wants it: an ASN.1 DER signature over SHA-256 (node's default for EC keys). */
function signEs256(key: KeyObject, data: Buffer): Buffer {
  return sign("sha256", data, key);
}
