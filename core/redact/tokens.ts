// Provider credentials recognisable by their own shape (a fixed prefix, length and alphabet).
// Data only. Every match starts with one of the rule's anchors; the scanner runs a rule only there.
import type { Rule } from "./spans.ts"

/** Not glued to a preceding letter or digit, except the `n` of a JSON `\n` escape. */
const B = String.raw`(?<![A-Za-z0-9](?<!\\[nrt]))`
/** Same, and not after `-` or `_` either (for short prefixes like `sk-`). */
const BW = String.raw`(?<![\w-](?<!\\[nrt]))`
const E = String.raw`(?![A-Za-z0-9])`
const EW = String.raw`(?![\w-])`

function token(id: string, anchors: string[], body: string, end = E, start = B, follow?: string): Rule {
  return { id, anchors, re: new RegExp(start + body + end, "g"), ...(follow ? { follow } : {}) }
}

export const TOKEN_RULES: readonly Rule[] = [
  // cloud providers
  token("aws-access-key-id", ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"], String.raw`A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}`),
  token("google-api-key", ["AIza"], String.raw`AIza[\w-]{35}`, EW),
  token("google-oauth-secret", ["GOCSPX-"], String.raw`GOCSPX-[\w-]{28}`, EW),
  token("google-oauth-token", ["ya29."], String.raw`ya29\.[\w-]{20,}`, ""),
  token("alibaba-access-key", ["LTAI"], String.raw`LTAI[A-Za-z0-9]{12,20}`),
  token("digitalocean-token", ["dop_v1_", "doo_v1_", "dor_v1_"], String.raw`do[opr]_v1_[a-f0-9]{64}`),
  // Azure AD client secrets: 3 chars, a digit, then `Q~` (the anchor) and 31-34 more
  {
    id: "azure-ad-client-secret",
    anchors: ["Q~"],
    re: /(?<=(?<![\w~.-])[\w~.]{3}\d)Q~[\w~.-]{31,34}(?![\w~.-])/g,
    lead: 4,
  },
  // source hosting and package registries
  token("github-token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], String.raw`gh[pousr]_[A-Za-z0-9]{36,251}`),
  token("github-token", ["github_pat_"], String.raw`github_pat_\w{82,}`, ""),
  token("gitlab-token", ["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-", "glft-", "glimt-", "glagent-", "gloas-", "glffct-"], String.raw`gl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|agent|oas|ffct)-[\w-]{20,}`, ""),
  token("gitlab-token", ["GR1348941"], String.raw`GR1348941[\w-]{20,}`, ""),
  token("npm-token", ["npm_"], String.raw`npm_[A-Za-z0-9]{36}`),
  token("pypi-token", ["pypi-AgE"], String.raw`pypi-AgE[\w-]{50,}`, ""),
  token("rubygems-token", ["rubygems_"], String.raw`rubygems_[a-f0-9]{48}`),
  token("docker-hub-token", ["dckr_pat_"], String.raw`dckr_pat_[\w-]{27,}`, ""),
  token("atlassian-token", ["ATATT3"], String.raw`ATATT3[\w=-]{100,}`, ""),
  token("artifactory-key", ["AKCp"], String.raw`AKCp[A-Za-z0-9]{69}`),
  // chat
  token("slack-token", ["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-"], String.raw`xox[abposre]-[A-Za-z0-9-]{10,}`, ""),
  token("slack-token", ["xapp-"], String.raw`xapp-\d-[A-Za-z0-9-]{10,}`, ""),
  token("slack-webhook", ["hooks.slack.com/"], String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/([\w/+-]{20,})`, ""),
  // the first part is the bot's numeric id in base64: "MT" for ids starting with 1, "Mj" for 2, ...
  token("discord-bot-token", ["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"], String.raw`[MNO][\w-]{23,27}\.[\w-]{6}\.[\w-]{27,40}`, EW, B, String.raw`(?=[\w-]{22,26}\.[\w-]{6}\.)`),
  token("discord-webhook", ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"], String.raw`discord(?:app)?\.com/api/webhooks/\d{5,20}/([\w-]{60,})`, ""),
  // the bot id before the colon is public; the part from `AA` on is the secret
  { id: "telegram-bot-token", anchors: [":AA"], re: /:(?<=(?<![\w:])(?:bot)?\d{5,16}:)(AA[\w-]{33})(?![\w-])/g },
  token("twilio-api-key", ["SK"], String.raw`SK[0-9a-fA-F]{32}`, E, B, "(?=[0-9a-fA-F]{32})"),
  token("sendgrid-api-key", ["SG."], String.raw`SG\.[\w-]{22}\.[\w-]{43}`, EW),
  token("mailgun-api-key", ["key-"], String.raw`key-[0-9a-f]{32}`),
  { id: "mailchimp-api-key", anchors: ["-us"], re: /(?<=(?<![A-Za-z0-9])[0-9a-f]{32})-us\d{1,2}(?![A-Za-z0-9])/g, lead: 32 },
  // payments and commerce
  token("stripe-key", ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"], String.raw`[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}`),
  token("stripe-key", ["whsec_"], String.raw`whsec_[A-Za-z0-9+/=]{24,}`, ""),
  token("square-token", ["sq0atp-", "sq0csp-"], String.raw`sq0(?:atp|csp)-[\w-]{22,43}`, EW),
  token("square-token", ["EAAA"], String.raw`EAAA[\w-]{60}`, EW),
  token("shopify-token", ["shpat_", "shpca_", "shppa_", "shpss_"], String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`),
  token("facebook-token", ["EAAC", "EAAM"], String.raw`EAA[CM][A-Za-z0-9]{80,}`),
  // AI providers (anthropic before openai: on overlap the earlier rule names the marker)
  token("anthropic-key", ["sk-ant-"], String.raw`sk-ant-[\w-]{20,}`, "", BW),
  token("openai-key", ["sk-"], String.raw`sk-(?:proj-|svcacct-|admin-|None-)?[\w-]{20,}`, "", BW),
  token("huggingface-token", ["hf_", "api_org_"], String.raw`(?:hf|api_org)_[A-Za-z0-9]{34,}`),
  token("groq-api-key", ["gsk_"], String.raw`gsk_[A-Za-z0-9]{48,}`),
  token("xai-api-key", ["xai-"], String.raw`xai-[A-Za-z0-9]{60,}`),
  token("perplexity-api-key", ["pplx-"], String.raw`pplx-[A-Za-z0-9]{48,}`),
  token("replicate-token", ["r8_"], String.raw`r8_[A-Za-z0-9]{37,}`),
  // platforms and infrastructure
  token("heroku-api-key", ["HRKU-"], String.raw`HRKU-[\w-]{60}`, EW),
  token("databricks-token", ["dapi"], String.raw`dapi[a-f0-9]{32}(?:-\d)?`),
  token("vault-token", ["hvs.", "hvb."], String.raw`hv[sb]\.[\w-]{24,}`, ""),
  token("doppler-token", ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."], String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`),
  { id: "terraform-token", anchors: [".atlasv1."], re: /(?<=(?<![A-Za-z0-9])[A-Za-z0-9]{14})\.atlasv1\.[\w=-]{60,70}/g, lead: 14 },
  token("pulumi-token", ["pul-"], String.raw`pul-[a-f0-9]{40}`),
  token("fly-token", ["fo1_"], String.raw`fo1_[\w-]{43}`, EW),
  token("linear-api-key", ["lin_api_"], String.raw`lin_api_[A-Za-z0-9]{40}`),
  token("notion-token", ["ntn_"], String.raw`ntn_[A-Za-z0-9]{46}`),
  token("notion-token", ["secret_"], String.raw`secret_[A-Za-z0-9]{43}`),
  token("supabase-token", ["sbp_"], String.raw`sbp_[a-f0-9]{40}`),
  token("tailscale-key", ["tskey-"], String.raw`tskey-(?:api|auth|client|scim|webhook)-[\w-]{16,}`, ""),
  token("postman-api-key", ["PMAK-"], String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`),
  token("grafana-token", ["glsa_", "glc_"], String.raw`gl(?:sa|c)_[\w+/=]{32,}`, ""),
  token("sentry-token", ["sntrys_", "sntryu_"], String.raw`sntry[su]_[\w+/=]{40,}`, ""),
  token("newrelic-key", ["NRAK-"], String.raw`NRAK-[A-Z0-9]{27}`),
  token("dynatrace-token", ["dt0c01."], String.raw`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`),
  token("openshift-token", ["sha256~"], String.raw`sha256~[\w-]{43}`, EW),
  token("1password-token", ["ops_eyJ"], String.raw`ops_eyJ[A-Za-z0-9+/]{100,}={0,3}`, ""),
  token("age-secret-key", ["AGE-SECRET-KEY-1"], String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}`),
  // generic shapes
  token("jwt", ["eyJ"], String.raw`eyJ[\w-]{8,2048}\.[\w-]{8,8192}\.[\w-]{0,2048}`, ""),
  // a PEM private key, base64-encoded again (kubeconfig `client-key-data`, k8s secrets)
  {
    id: "private-key",
    anchors: ["LS0tLS1CRUdJTi"],
    re: new RegExp(B + String.raw`LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}`, "g"),
    accept: (_m, secret) => decodesToPrivateKey(secret),
  },
]

function decodesToPrivateKey(b64: string): boolean {
  try {
    return atob(b64.slice(0, 80)).includes("PRIVATE KEY")
  } catch {
    return false
  }
}
