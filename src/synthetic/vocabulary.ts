/**
 * Word lists that make synthetic values look like real data (names, titles, text, statuses).
 * Invented for this tool; any resemblance to real people is chance.
 */

// prettier-ignore
export const FIRST_NAMES: readonly string[] = [
  "Ada", "Alan", "Amara", "Ana", "Arjun", "Bea", "Carlos", "Chen", "Dara", "Diego", "Elena", "Emeka",
  "Fatima", "Grace", "Hana", "Ivan", "Jonas", "Kai", "Lena", "Liam", "Maya", "Mei", "Nadia", "Noah",
  "Omar", "Priya", "Rafael", "Sara", "Sofia", "Tomas", "Uma", "Yuki", "Zoe", "Ines", "Kwame", "Lucia",
];

// prettier-ignore
export const LAST_NAMES: readonly string[] = [
  "Abe", "Berg", "Costa", "Diaz", "Eze", "Fischer", "Garcia", "Hansen", "Ito", "Jensen", "Kim",
  "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Quinn", "Rossi", "Silva", "Tanaka", "Usman",
  "Varga", "Weber", "Xu", "Yilmaz", "Zhang", "Novak", "Haddad", "Mensah", "Larsen",
];

// prettier-ignore
export const WORDS: readonly string[] = [
  "cloud", "data", "model", "river", "garden", "city", "summer", "winter", "coffee", "music", "travel",
  "design", "window", "market", "light", "signal", "story", "paper", "bridge", "forest", "ocean",
  "engine", "pattern", "harbor", "planet", "canvas", "recipe", "journey", "puzzle", "lantern", "meadow",
  "orbit", "rhythm", "stone", "thread", "valley", "voice", "wonder", "anchor", "breeze", "castle",
  "detail", "echo", "field", "glass", "horizon", "island", "kitchen", "ladder", "mirror",
];

// prettier-ignore
export const TITLE_WORDS: readonly string[] = [
  "Notes", "Guide", "Thoughts", "Lessons", "Ideas", "Review", "Update", "Story", "Tips", "Questions",
  "Introduction", "Walkthrough", "Reflections", "Experiments", "Observations",
];

// prettier-ignore
export const CITIES: readonly string[] = [
  "Lisbon", "Osaka", "Nairobi", "Oslo", "Lima", "Seoul", "Austin", "Lyon", "Porto", "Accra", "Cusco",
  "Kyoto", "Tallinn", "Perth", "Montreal", "Bergen",
];

// prettier-ignore
export const COUNTRIES: readonly string[] = [
  "PT", "JP", "KE", "NO", "PE", "KR", "US", "FR", "GH", "EE", "AU", "CA", "DE", "BR", "IN", "NG", "ES",
  "IT", "MX", "NL", "SE", "PL", "ZA", "AR", "CL", "CO", "EG", "FI", "GR", "IE", "IL", "MA", "NZ", "PH",
  "RO", "SG", "TH", "TR", "UA", "VN",
];

/** Values for well-known low-cardinality attributes, by lower-case attribute name. */
// prettier-ignore
export const KNOWN_VALUES: Readonly<Record<string, readonly string[]>> = {
  status: ["active", "pending", "closed", "suspended", "archived", "deleted"],
  state: ["open", "in-progress", "done", "cancelled"],
  severity: ["low", "medium", "high", "critical"],
  priority: ["low", "normal", "high", "urgent"],
  role: ["owner", "admin", "member", "viewer", "guest"],
  plan: ["free", "starter", "business", "enterprise"],
  tier: ["bronze", "silver", "gold", "platinum"],
  loyaltytier: ["bronze", "silver", "gold", "platinum"],
  currency: ["USD", "EUR", "GBP", "JPY", "BRL", "INR"],
  visibility: ["public", "followers", "private"],
  kind: ["like", "love", "haha", "wow", "sad", "angry"],
  type: ["standard", "premium", "trial", "internal"],
  region: ["westeurope", "eastus", "southeastasia", "brazilsouth", "australiaeast", "japaneast"],
  language: ["en", "pt", "ja", "de", "fr", "es"],
  locale: ["en-US", "pt-BR", "ja-JP", "de-DE", "fr-FR", "es-ES"],
  gender: ["female", "male", "nonbinary"],
  country: COUNTRIES,
  city: CITIES,
  eventtype: ["page-view", "click", "document-edit", "api-call", "sign-in", "sign-out", "upload", "download", "search", "share"],
  clientapp: ["web", "ios", "android", "desktop", "cli", "api"],
  paymentmethod: ["card", "paypal", "bank-transfer", "gift-card"],
};
