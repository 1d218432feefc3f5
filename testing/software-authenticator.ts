import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A security key in software for the integration tests (the end-to-end suite uses Chromium's
 * virtual authenticator): it makes ES256 credentials with "none" attestation and signs sign-in
 * challenges, as WebAuthn (Level 2) lays the bytes out, so the console's real verification
 * (@simplewebauthn/server) checks them.
 */

/** The little of CBOR (RFC 8949) a credential needs: integers, byte and text strings, maps. */
type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>;
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes.writeUInt8((major << 5) | 25, 0);
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();
const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 };

export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, { privateKey: KeyObject; userHandle: string; counter: number; rpId: string }>();

  /** Answers navigator.credentials.create() with `options` (from the console) at `origin`. */
  register(options: { rp: { id?: string }; user: { id: string }; challenge: string }, origin: string) {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(String(jwk.x), "base64url")],
      [-3, Buffer.from(String(jwk.y), "base64url")],
    ]);
    const credentialId = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAGS.userPresent | FLAGS.userVerified | FLAGS.attested]),
      Buffer.alloc(4), // counter 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credentialId,
      cbor(coseKey),
    ]);
    const id = credentialId.toString("base64url");
    this.credentials.set(id, { privateKey, userHandle: options.user.id, counter: 0, rpId });
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: Buffer.from(clientDataJSON).toString("base64url"),
        attestationObject: cbor(
          new Map<Cbor, Cbor>([
            ["fmt", "none"],
            ["attStmt", new Map()],
            ["authData", authData],
          ]),
        ).toString("base64url"),
        transports: ["usb"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "cross-platform" as const,
    };
  }

  /** Answers navigator.credentials.get() for `challenge` with credential `id` (default: the first one). */
  authenticate(challenge: string, origin: string, id = [...this.credentials.keys()][0], options: { counter?: number } = {}) {
    const credential = this.credentials.get(id);
    if (!credential) throw new Error(`no credential ${id}`);
    // `options.counter`: this answer's counter instead of the next one (a cloned key's).
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(options.counter ?? ++credential.counter);
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([FLAGS.userPresent | FLAGS.userVerified]), counter]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: clientDataJSON.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "cross-platform" as const,
    };
  }
}
