/**
 * PostgreSQL connection URLs: recognising one, and showing it without its password.
 */

/** True when `source` is a PostgreSQL connection URL rather than a file name. */
export function isConnectionUrl(source: string): boolean {
  return /^postgres(ql)?:\/\//i.test(source.trim());
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
    // not parseable as a URL: show only the scheme, which cannot hold a secret
    return `${/^[a-z]+:\/\//i.exec(url.trim())?.[0] ?? ""}(unreadable connection URL)`;
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, "***");
  }
  return parsed.toString().replace("%2A%2A%2A", "***");
}
