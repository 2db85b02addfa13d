/** What a signature-checked access token says (modules/auth/access-token.ts signs and verifies it). */
export type AccessTokenClaims = { userId: number; tokenId: string; issuedAt: Date; expiresAt: Date };

/**
 * What every authenticated request used to read from the database: the user and whether its token's
 * session is open. Kept in memory per database handle, and forgotten the moment the database says it
 * changed: triggers on users (migration 0015) and user_sessions (0034) send a notice on the channel
 * AUTH_NOTICE_CHANNEL when they commit, and every process listening (each API server, on its own
 * connection) drops what it kept. A user deactivated, demoted, moved to another client or whose
 * password changed in one process is refused in every other at once: before answering from memory a
 * request waits for one round trip on the listening connection that began after it arrived (PostgreSQL
 * sends a listener every notice committed before a query ahead of that query's answer), so a change
 * committed before the request is always seen. Requests arriving together share that round trip. While
 * the listening connection is down nothing is kept: every request reads the database, as before.
 */
export const AUTH_NOTICE_CHANNEL = "cyclebill_auth";

/**
 * Starts listening; calls onLost if the listening connection fails later. Resolves to `stop`, and
 * `sync`: one round trip on the listening connection, which answers only after every notice
 * committed before it was sent has been handed to onNotice.
 */
export type AuthNoticeSource = (
  onNotice: (payload: string) => void,
  onLost: () => void,
) => Promise<{ stop: () => Promise<void>; sync: () => Promise<void> }>;

export type CachedUser = {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isClientStaff: boolean;
  clientId: number | null;
  isActive: boolean;
  tokensValidAfter: Date | null;
  /** A second factor: a confirmed app or a passkey (their tables' triggers send this user's notice). */
  hasSecondFactor: boolean;
  /** The user's client requires a second factor (clients.require_second_factor). */
  clientRequiresSecondFactor: boolean;
};

/** Bounds memory: past this many entries a map starts again empty. */
const MAX_ENTRIES = 10_000;
/** After the listening connection is lost, wait this long before listening again. */
const RETRY_MS = 1_000;

type State = "idle" | "starting" | "listening" | "closed";

export class AuthCache {
  private state: State = "idle";
  private retryAfter = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private syncListener: (() => Promise<void>) | undefined;
  /** The round trip in flight, and the one queued to start after it (for requests arriving meanwhile). */
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** Bumped by every notice: a read begun before a notice is not kept. */
  private generation = 0;
  private readonly users = new Map<number, CachedUser>();
  /** Token ids whose sessions are known to be open. */
  private readonly liveTokens = new Set<string>();
  /** Signature-checked tokens (a token's claims never change; expiry is checked on each use). */
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(private readonly source: AuthNoticeSource) {}

  /** Verified claims of this exact token, if still unexpired. */
  claimsOf(token: string): AccessTokenClaims | undefined {
    const claims = this.verified.get(token);
    if (claims && claims.expiresAt.getTime() > Date.now()) return claims;
    if (claims) this.verified.delete(token);
    return undefined;
  }

  rememberClaims(token: string, claims: AccessTokenClaims): void {
    if (this.verified.size >= MAX_ENTRIES) this.verified.clear();
    this.verified.set(token, claims);
  }

  /** The user, when kept and the token's session is known to be open, as of every notice sent so far. */
  async lookup(userId: number, tokenId: string): Promise<CachedUser | undefined> {
    this.listen();
    if (this.state !== "listening" || !this.liveTokens.has(tokenId) || !this.users.has(userId))
      return undefined;
    try {
      await this.caughtUp();
    } catch {
      return undefined;
    }
    if (this.state !== "listening" || !this.liveTokens.has(tokenId)) return undefined;
    return this.users.get(userId);
  }

  /** Resolves after a round trip on the listening connection that began after this call. */
  private caughtUp(): Promise<void> {
    if (!this.running) return this.startRoundTrip();
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.startRoundTrip();
      });
    return this.queued;
  }

  private startRoundTrip(): Promise<void> {
    const sync = this.syncListener;
    const trip = (sync ? sync() : Promise.reject(new Error("not listening"))).finally(() => {
      if (this.running === trip) this.running = undefined;
    });
    this.running = trip;
    return trip;
  }

  /** Where a read starts; pass it to keep() so a notice in between wins. */
  mark(): number {
    return this.generation;
  }

  keep(mark: number, user: CachedUser, tokenId: string): void {
    if (this.state !== "listening" || mark !== this.generation) return;
    if (this.users.size >= MAX_ENTRIES) this.users.clear();
    if (this.liveTokens.size >= MAX_ENTRIES) this.liveTokens.clear();
    this.users.set(user.id, user);
    this.liveTokens.add(tokenId);
  }

  /** A notice: "user:<id>", "token:<jti>", or anything else (forget everything). */
  forget(payload: string): void {
    this.generation += 1;
    const [kind, key] = [payload.slice(0, payload.indexOf(":")), payload.slice(payload.indexOf(":") + 1)];
    if (kind === "user" && /^\d+$/.test(key)) this.users.delete(Number(key));
    else if (kind === "token") this.liveTokens.delete(key);
    else this.clear();
  }

  async close(): Promise<void> {
    const stop = this.stopListening;
    this.state = "closed";
    this.stopListening = undefined;
    this.syncListener = undefined;
    this.clear();
    if (stop) await stop();
  }

  private clear(): void {
    this.generation += 1;
    this.users.clear();
    this.liveTokens.clear();
  }

  /** Starts listening in the background (first use, or a while after the connection was lost). */
  private listen(): void {
    if (this.state !== "idle" || Date.now() < this.retryAfter) return;
    this.state = "starting";
    this.clear();
    const lost = () => {
      if (this.state === "closed") return;
      const stop = this.stopListening;
      this.stopListening = undefined;
      this.syncListener = undefined;
      this.state = "idle";
      this.retryAfter = Date.now() + RETRY_MS;
      this.clear();
      if (stop) void stop().catch(() => undefined);
    };
    this.source(
      (payload) => this.forget(payload),
      () => lost(),
    ).then(
      ({ stop, sync }) => {
        if (this.state !== "starting") {
          void stop().catch(() => undefined);
          return;
        }
        this.stopListening = stop;
        this.syncListener = sync;
        this.state = "listening";
        // A read begun before LISTEN took hold may have missed a notice: keep none of those.
        this.generation += 1;
      },
      () => lost(),
    );
  }
}

const caches = new WeakMap<object, AuthCache>();

/** Called by openDatabase: this handle's processes' notices keep its cache honest. */
export function attachAuthCache(db: object, source: AuthNoticeSource): AuthCache {
  const cache = new AuthCache(source);
  caches.set(db, cache);
  return cache;
}

/** The handle's cache; none for a database opened some other way (then every request reads). */
export function authCacheOf(db: object): AuthCache | undefined {
  return caches.get(db);
}
