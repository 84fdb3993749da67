// Credentials published in vendors' documentation as examples: public, printed in countless READMEs
// and test fixtures, and never valid. Left intact so docs and tests read as written. Data only;
// each entry says where it is published.
const PUBLIC_EXAMPLES = new Set([
  // AWS, "Managing access keys for IAM users" and the CLI configuration guide:
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  // AWS, the second pair used across the same guides (e.g. "Using temporary credentials"):
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_temp_use-resources.html
  "AKIAI44QH8DHBEXAMPLE",
  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
  // jwt.io's default token (HS256, secret "your-256-bit-secret"), shown on https://jwt.io/
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
])

/** A documented example credential (exactly: a real key that merely contains one is still a secret). */
export function isPublicExample(secret: string): boolean {
  return secret.length >= 20 && PUBLIC_EXAMPLES.has(secret)
}
