/**
 * PostgreSQL connection URLs: recognising one, and showing it without its password.
 */

/** True when `source` is a PostgreSQL connection URL rather than a file name. */
export function isConnectionUrl(source: string): boolean {
  return /^postgres(ql)?:\/\//i.test(source.trim());
}

/** libpq's keyword/value connection strings: `host=db port=5432 password=...`. */
const KEYWORD_VALUE = /(^|\s)(host|hostaddr|port|dbname|user|password|sslmode|service)\s*=/i;

/**
 * What kind of connection `source` is when it is one at all, before it is taken for a file name:
 * a `postgres://` URL, another `scheme://` URL (`mysql://`, a misspelt `postgress://`), or a
 * libpq keyword/value string (`host=db password=...`). `undefined`: a file name.
 */
export function connectionKind(source: string): "postgresUrl" | "otherUrl" | "keywordValue" | undefined {
  const text = source.trim();
  if (isConnectionUrl(text)) return "postgresUrl";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return "otherUrl";
  if (KEYWORD_VALUE.test(text)) return "keywordValue";
  return undefined;
}

/**
 * Any connection text as it may be printed, also one that is not a valid URL: the password of a
 * URL's user-info part (`//user:PW@`) and every `password=`, `secret=`, `key=` or `token=`
 * value (URL parameters, libpq keywords) replaced by `***`.
 * @example redactConnectionText("host=db password=s3cret") // "host=db password=***"
 */
export function redactConnectionText(text: string): string {
  return text
    .replace(/(\/\/[^/@:\s]*:)[^@\s]*@/g, "$1***@")
    .replace(/(\b[a-z_]*(?:pass|secret|key|token)[a-z_]*\s*=\s*)('[^']*'|[^\s&;]+)/gi, "$1***");
}

/**
 * A connection URL's problem before anything connects, in words, or `undefined` when it reads:
 * what is not a URL (`[bad`), a port that is not one (`:99999`).
 */
export function connectionUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    const port = /^[a-z]+:\/\/(?:[^@/]*@)?[^/:]*:(\d+)/i.exec(url.trim())?.[1];
    if (port !== undefined && Number(port) > 65_535) return `its port ${port} is not a port (1 to 65,535)`;
    return "it is not a valid URL: postgres://user@host:port/database (an IPv6 host in brackets, special characters in the user or password percent-encoded)";
  }
  // No host is PGHOST or the local socket (libpq's default), valid in a terminal; the MCP tool
  // refuses it separately (connectionTarget).
  return parsed.port !== "" && Number(parsed.port) < 1 ? `its port ${parsed.port} is not a port` : undefined;
}

/**
 * The URL as it may be printed: the password (in the user-info part or a `password` parameter)
 * replaced by `***`, everything else kept.
 * @example redactConnectionUrl("postgres://app:s3cret@db:5432/shop") // "postgres://app:***@db:5432/shop"
 */
export function redactConnectionUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // not parseable as a URL: every password-like part masked in the text as given
    return redactConnectionText(url.trim());
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, "***");
  }
  return parsed.toString().replace("%2A%2A%2A", "***");
}

/** A database server an import may connect to: a host, and a port or any port. */
export interface AllowedDatabase {
  readonly host: string;
  /** Absent: any port of the host. */
  readonly port?: number;
}

/** The server a connection URL points at, as node-postgres would connect to it. */
export interface ConnectionTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * Parameters a confined connection URL may carry. Others are refused: `host`, `hostaddr` and
 * `port` would move the connection elsewhere than the URL shows, and `sslcert`, `sslkey` and
 * `sslrootcert` make the client read files.
 */
const SAFE_PARAMETERS = new Set(["sslmode", "application_name", "connect_timeout"]);

/** PostgreSQL's default port. */
const DEFAULT_PORT = 5432;

/**
 * Reads `host` or `host:port` entries separated by commas or white space (the server's
 * configuration of what an assistant may import from); an IPv6 address is written in brackets.
 * @example parseAllowedDatabases("db.example.com:5432, 127.0.0.1") // [{ host: "db.example.com", port: 5432 }, { host: "127.0.0.1" }]
 */
export function parseAllowedDatabases(text: string): readonly AllowedDatabase[] {
  return text
    .split(/[\s,]+/)
    .filter((entry) => entry !== "")
    .map((entry) => {
      const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
      if (match === null) throw new Error(`"${entry}" is not host or host:port`);
      const host = (match[1] ?? "").replace(/^\[(.+)\]$/, "$1").toLowerCase();
      return match[2] === undefined ? { host } : { host, port: Number(match[2]) };
    });
}

/**
 * Where a connection URL connects, or why it cannot be read as a confined URL (a parameter
 * that moves the connection or reads files, no host). `env` gives PGPORT, the port node-postgres
 * uses when the URL has none.
 */
export function connectionTarget(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): { readonly target: ConnectionTarget } | { readonly problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { problem: "it is not a valid URL (postgres://user@host:port/database)" };
  }
  if (!/^postgres(ql)?:$/i.test(parsed.protocol)) return { problem: "it is not a postgres:// URL" };
  const refused = [...parsed.searchParams.keys()].filter((key) => !SAFE_PARAMETERS.has(key.toLowerCase()));
  if (refused.length > 0)
    return {
      problem: `its parameters ${refused.join(", ")} are not accepted here (only ${[...SAFE_PARAMETERS].join(", ")}): put the host and port in the URL itself`,
    };
  const host = decodeURIComponent(parsed.hostname.replace(/^\[(.+)\]$/, "$1")).toLowerCase();
  if (host === "" || host.startsWith("/"))
    return {
      problem: "it names no host (a socket or the PGHOST default is not accepted here): give host:port",
    };
  const port = parsed.port === "" ? Number(env.PGPORT ?? DEFAULT_PORT) : Number(parsed.port);
  if (!Number.isInteger(port) || port <= 0)
    return { problem: `its port ${parsed.port || env.PGPORT} is not a port` };
  return { target: { host, port } };
}

/**
 * Whether an import may connect to `url` on behalf of an assistant: only to a server the user
 * allowed in the server's configuration. Nothing is connected to, and no password from the
 * environment (PGPASSWORD, ~/.pgpass) is sent, anywhere else.
 */
export function checkConnectionAllowed(
  url: string,
  allowed: readonly AllowedDatabase[],
  env: Readonly<Record<string, string | undefined>>,
):
  { readonly ok: true; readonly target: ConnectionTarget } | { readonly ok: false; readonly reason: string } {
  const read = connectionTarget(url, env);
  const shown = redactConnectionUrl(url);
  if ("problem" in read) return { ok: false, reason: `${shown} is refused: ${read.problem}` };
  const { host, port } = read.target;
  if (allowed.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port)))
    return { ok: true, target: read.target };
  return {
    ok: false,
    reason:
      `${shown} is refused: ${host}:${port} is not a database server the user allowed. ` +
      (allowed.length === 0
        ? "None is allowed yet. To allow it, "
        : `Allowed: ${allowed.map((a) => (a.port === undefined ? a.host : `${a.host}:${a.port}`)).join(", ")}. To allow it, `) +
      `the user starts the server with --allow-database ${host}:${port} (or sets COSMOS_MODELER_ALLOW_DATABASES=${host}:${port}); or runs cosmos-modeler import in a terminal.`,
  };
}
