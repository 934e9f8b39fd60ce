"""Secret redaction: every string bound for disk, a commit message or a model passes here first.

Contract: `redact(text)` returns the text with each secret replaced by `[REDACTED:<kind>]` and
the kinds found, in the order of the rules. Covered (docs/security.md lists the corpus the tests
hold it to): the key and token formats of model providers, clouds, code hosts, chat, payment,
mail, monitoring and secret-management services, identified by their prefixes; private key
blocks (terminated or not: an unterminated block takes its key-looking lines only, never the rest
of the text); JWTs; passwords in URLs, query strings and connection strings (Azure, SQL Server,
JDBC); authorization and API-key headers; command-line passwords (`--password=`, `sshpass -p`,
`mysql -p`, `docker login -p`, `-storepass`, `pass:`, `--from-literal=`); SQL `IDENTIFIED BY`;
`.npmrc`, Docker `auths`, `.netrc`, Kubernetes `Secret` data; and assignments whose name ends
in a secret word (`DB_PASSWORD=`, `client_secret: …`, `"api-key": "…"`), wherever they sit in
the line. Text that is JSON- or YAML-escaped (a tool's JSON output, a quoted front-matter title)
is also read unescaped, so escaping never hides a secret. Ordinary code, hashes, UUIDs, lockfile
integrity strings and paths pass unchanged (the false-positive figure is in docs/security.md).

`redact_value` does the same for every string (and key) of a JSON-like value, and replaces the
value of a secret-named key whole. `scrub` makes any text safe to echo (commit messages, reports):
redacted, on one line, capped.

Hook-path module: standard library only. A pattern is compiled lazily, and only when a cheap
literal trigger for it occurs in the text: compiling every regex at each hook start would cost a
large share of the hook's time budget.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

# A name whose value is a secret must END in one of these words, optionally plural, `_` or `-`
# between its parts (GITHUB_TOKEN, db_password, "client-secret", SECRET_KEY), so TOKEN_TTL,
# tokenizer or password_hash are left alone.
_NAME_ENDINGS = (
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "_PASS",
    "TOKEN",
    "APIKEY",
    "API_KEY",
    "ACCESSKEY",
    "ACCESS_KEY",
    "PRIVATEKEY",
    "PRIVATE_KEY",
    "SECRETKEY",
    "SECRET_KEY",
    "SECRET_KEY_BASE",
    "APP_KEY",
    "MASTER_KEY",
    "SIGNING_KEY",
    "ENCRYPTION_KEY",
    "LICENSE_KEY",
    "KEY_DATA",
    "CREDENTIAL",
    "AUTHKEY",
    "AUTH_KEY",
    "SESSIONKEY",
    "SESSION_KEY",
    "_PAT",
    "DATABASE_URL",
    "DSN",
)
_NAME = r"[A-Za-z0-9_.-]*?(?:" + "|".join(w.replace("_", "[_-]") for w in _NAME_ENDINGS) + ")S?"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
# A value worth hiding: 4+ characters, not all digits (MAX_TOKENS=4096), not a boolean, not a
# variable reference (${TOKEN}, $TOKEN, %TOKEN%, <token>) and not masked (****).
_VALUE = r"(?![0-9]+\b)(?!(?i:true|false|null|none|yes|no)\b)(?![$%<*&])"
# In code and config, a value that is itself a secret word or a type (`self.token = token`,
# `password: string`, `"password": "Password"`) names a variable or a label, not a secret.
_NOT_A_NAME = (
    r"(?!(?i:(?:[a-z]+[_.-])*(?:token|password|passwd|secret|key|pass|credential|dsn|pat"
    r"|string|str|number|int|integer|bool|boolean|bytes|any|object|unknown|float|double|char"
    r"|optional|undefined)s?)\b)"
)
# Separators inside a private key block: real line breaks, JSON-escaped ones (once or more: a
# service-account file inside a tool's JSON output), or spaces (a block pasted onto one line).
_KEY_SEP = r"(?:(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n))+[ \t]*|[ \t]+)"
_KEY_END = r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
_KEY_BLOCK = (
    r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:" + _KEY_SEP + r"?(?:[A-Za-z0-9+/=]{8,}|[A-Za-z][A-Za-z0-9-]*:[ \t][^\r\n\\]*"
    r"|[A-Za-z0-9+/=]{1,7}(?=" + _KEY_SEP + r"?" + _KEY_END + r")))*"
    r"(?:" + _KEY_SEP + r"?" + _KEY_END + r")?"
)
# Name parts of HTTP headers that carry a credential (X-API-Key, Private-Token, X-Vault-Token).
_HEADER = (
    r"(?:(?:[A-Za-z0-9]+-)*(?:api-?key|auth-?key|app-?key|application-key|access-?key"
    r"|secret-?key|functions-key|subscription-key|master-key|api-?token|auth-?token"
    r"|access-?token|private-?token|vault-?token|session-?token|security-?token|csrf-?token"
    r"|client-?secret)|(?:[A-Za-z0-9]+-)+(?:secret|password|signature|token))"
)


def _tok(prefix: str, rest: str) -> str:
    """A token pattern that starts with its fixed-width prefix, the word boundary checked behind
    it: the regex engine then searches for the prefix, where a leading \\b would make it try
    every position of the text (a hundred times slower on long text)."""
    return f"{prefix}(?<![A-Za-z0-9_]{prefix}){rest}"


# (kind, literal triggers: the pattern runs only if one occurs in the text, triggers that are
# looked for in the lower-cased text, pattern, group of the secret).
# Specific provider formats come before the generic rules.
_RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str, int], ...] = (
    (
        # a block with both of its lines, whatever stands between (an armour's headers, a body
        # broken by a tool's escaping): all of it
        "private_key",
        ("PRIVATE KEY",),
        (),
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:(?!-----BEGIN)[\s\S]){64,16384}?"
        r"KEY(?: BLOCK)?-----",
        0,
    ),
    ("private_key", ("PRIVATE KEY",), (), _KEY_BLOCK, 0),
    (
        # the tail of a key whose BEGIN line was cut off before it reached us
        "private_key",
        ("PRIVATE KEY",),
        (),
        r"(?:^[A-Za-z0-9+/=]{16,}\r?\n)+" + _KEY_END,
        0,
    ),
    # Key material by its structure, whatever tool wrote it: SSH.com and OpenVPN armour, the
    # private lines of a PuTTY key, a minisign or signify secret key under its comment line,
    # the private members of a JSON Web Key, and a private key's DER encoding in base64
    # without armour (a SEQUENCE whose first member is the version number: PKCS#8, PKCS#1,
    # SEC1; public keys and certificates start with a SEQUENCE instead).
    (
        "private_key",
        ("---- BEGIN SSH2", "BEGIN OpenVPN Static key"),
        (),
        r"(?:---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----|-----BEGIN OpenVPN Static key V\d-----)"
        r"(?:" + _KEY_SEP + r"?(?:[A-Za-z0-9+/=]{8,}|[A-Za-z][A-Za-z0-9-]*:[ \t]"
        r"(?:[^\r\n\\]|\\\")*))*"  # a header's value may be quoted, escaped in JSON
        r"(?:" + _KEY_SEP + r"?-{4,5} ?END [A-Za-z0-9 ]*?(?:KEY|key V\d) ?-{4,5})?",
        0,
    ),
    (
        "private_key",
        ("Private-Lines:",),
        (),
        r"Private-Lines:[ \t]*\d+((?:" + _KEY_SEP + r"[A-Za-z0-9+/=]{4,})+)",
        1,
    ),
    (
        "private_key",
        (),
        ("secret key",),
        r"(?i)untrusted comment:[^\n]*secret key[^\n]*\r?\n[ \t]*([A-Za-z0-9+/=]{40,})",
        1,
    ),
    ("private_key", ('"kty"',), (), r'"(?:d|p|q|dp|dq|qi|k)"\s*:\s*"([A-Za-z0-9_-]{16,})"', 1),
    (
        "private_key",
        ("IBADAN", "IBAAK", "AgEAMB", "AgEBB", "CAQAwBQYDK2V", "MHcCAQEE"),
        (),
        r"(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBA(?:DAN|AK[A-Z])|MI[GH][A-Za-z0-9+/]AgE"
        r"(?:AMB|BB)|MC4CAQAwBQYDK2V[nw]|MHcCAQEE)[A-Za-z0-9+/]{40,}={0,2}"
        r"(?:[ \t]*(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/]{16,}={0,2})*",
        0,
    ),
    ("anthropic_key", ("sk-ant-",), (), _tok(r"sk-ant-", r"[A-Za-z0-9_-]{16,}"), 0),
    (
        "openai_key",
        ("sk-",),
        (),
        _tok(r"sk-", r"(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}"),
        0,
    ),
    (
        "aws_access_key",
        ("AKIA", "ASIA", "ABIA", "ACCA", "AROA", "AIDA", "A3T"),
        (),
        _tok(r"A", r"(?:KIA|SIA|BIA|CCA|ROA|IDA|3T[A-Z0-9])[0-9A-Z]{16}\b"),
        0,
    ),
    (
        "aws_secret_key",
        (),
        ("aws_secret", "secretaccesskey", "secret_access_key"),
        r"(?i)(?:aws_secret_access_key|secretaccesskey)[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})",
        1,
    ),
    ("google_api_key", ("AIza",), (), _tok(r"AIza", r"[0-9A-Za-z_-]{35}"), 0),
    ("google_oauth_token", ("ya29.",), (), _tok(r"ya29\.", r"[0-9A-Za-z_-]{20,}"), 0),
    ("google_client_secret", ("GOCSPX-",), (), _tok(r"GOCSPX-", r"[A-Za-z0-9_-]{20,}"), 0),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        (),
        _tok(r"gh", r"[pousr]_[A-Za-z0-9]{30,}"),
        0,
    ),
    ("github_token", ("github_pat_",), (), _tok(r"github_pat_", r"[A-Za-z0-9_]{22,}"), 0),
    (
        "gitlab_token",
        (
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "glft-",
            "glsoat-",
            "glcbt-",
            "glimt-",
            "gloas-",
            "glffct-",
            "glagent-",
        ),
        (),
        _tok(r"gl", r"(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|ffct|agent)-[A-Za-z0-9_.-]{20,}"),
        0,
    ),
    ("slack_token", ("xox",), (), _tok(r"xox", r"[abposre]-[A-Za-z0-9-]{10,}"), 0),
    ("slack_token", ("xapp-",), (), _tok(r"xapp-", r"\d-[A-Za-z0-9-]{10,}"), 0),
    (
        "slack_webhook",
        ("hooks.slack.com",),
        (),
        r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]+",
        0,
    ),
    (
        "discord_webhook",
        ("/api/webhooks/",),
        (),
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{20,})",
        1,
    ),
    (
        "discord_token",
        (),
        ("discord", "bot "),
        r"\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b",
        0,
    ),
    ("telegram_bot_token", (":AA",), (), _tok(r"\d", r"\d{7,9}:AA[A-Za-z0-9_-]{33}\b"), 0),
    (
        "stripe_key",
        ("sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod"),
        (),
        _tok(r"[sr]", r"k_(?:live|test|prod)_[A-Za-z0-9]{10,}"),
        0,
    ),
    ("stripe_webhook_secret", ("whsec_",), (), _tok(r"whsec_", r"[A-Za-z0-9+/=]{24,}"), 0),
    ("twilio_key", ("SK",), (), _tok(r"SK", r"[0-9a-fA-F]{32}\b"), 0),
    ("huggingface_token", ("hf_",), (), _tok(r"hf_", r"[A-Za-z0-9]{30,}"), 0),
    (
        "sendgrid_key",
        ("SG.",),
        (),
        _tok(r"SG\.", r"(?:[A-Za-z0-9_=-]{16,}\.[A-Za-z0-9_=-]{16,}|[A-Za-z0-9_=.-]{60,})"),
        0,
    ),
    ("mailgun_key", ("key-",), (), _tok(r"key-", r"[0-9a-f]{32}\b"), 0),
    ("mailchimp_key", ("-us",), (), _tok(r"[0-9a-f]", r"[0-9a-f]{31}-us\d{1,2}\b"), 0),
    ("npm_token", ("npm_",), (), _tok(r"npm_", r"[A-Za-z0-9]{36}\b"), 0),
    (
        "npm_token",
        ("_authToken", "_auth", "_password"),
        (),
        r"(?:_authToken|_auth|_password)\s*=\s*([\"']?)" + _VALUE + r"([^\s\"']{6,})\1",
        2,
    ),
    ("pypi_token", ("pypi-",), (), _tok(r"pypi-AgE", r"[A-Za-z0-9_-]{50,}"), 0),
    (
        "digitalocean_token",
        ("dop_v1_", "doo_v1_", "dor_v1_"),
        (),
        _tok(r"do", r"[por]_v1_[a-f0-9]{64}\b"),
        0,
    ),
    (
        "shopify_token",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        (),
        _tok(r"shp", r"(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
        0,
    ),
    ("atlassian_token", ("ATATT",), (), _tok(r"ATATT", r"[A-Za-z0-9_=-]{20,}"), 0),
    ("linear_key", ("lin_api_",), (), _tok(r"lin_api_", r"[A-Za-z0-9]{32,}"), 0),
    (
        "doppler_token",
        ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."),
        (),
        _tok(r"dp\.", r"(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{32,}"),
        0,
    ),
    ("databricks_token", ("dapi",), (), _tok(r"dapi", r"[a-f0-9]{32}(?:-\d)?\b"), 0),
    (
        "grafana_token",
        ("glsa_", "glc_"),
        (),
        _tok(r"gl", r"(?:sa_[A-Za-z0-9]{32}_[a-f0-9]{8}|c_[A-Za-z0-9+/=_-]{32,})"),
        0,
    ),
    (
        "newrelic_key",
        ("NRAK-", "NRII-", "NRJS-"),
        (),
        _tok(r"NR", r"(?:AK|II|JS)-[A-Z0-9]{20,}"),
        0,
    ),
    ("sentry_token", ("sntrys_", "sntryu_"), (), _tok(r"sntry", r"[su]_[A-Za-z0-9+/=_-]{40,}"), 0),
    ("postman_key", ("PMAK-",), (), _tok(r"PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}\b"), 0),
    (
        "planetscale_token",
        ("pscale_",),
        (),
        _tok(r"pscale_", r"(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,}"),
        0,
    ),
    ("supabase_token", ("sbp_",), (), _tok(r"sbp_", r"[a-f0-9]{40}\b"), 0),
    ("age_key", ("AGE-SECRET-KEY-",), (), _tok(r"AGE-SECRET-KEY-1", r"[0-9A-Z]{58}\b"), 0),
    ("groq_key", ("gsk_",), (), _tok(r"gsk_", r"[A-Za-z0-9]{40,}"), 0),
    ("xai_key", ("xai-",), (), _tok(r"xai-", r"[A-Za-z0-9]{60,}"), 0),
    ("perplexity_key", ("pplx-",), (), _tok(r"pplx-", r"[A-Za-z0-9]{40,}"), 0),
    ("replicate_token", ("r8_",), (), _tok(r"r8_", r"[A-Za-z0-9]{30,}"), 0),
    ("langsmith_key", ("lsv2_",), (), _tok(r"lsv2_", r"(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b"), 0),
    ("tailscale_key", ("tskey-",), (), _tok(r"tskey-", r"[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{20,}"), 0),
    ("notion_token", ("ntn_",), (), _tok(r"ntn_", r"[A-Za-z0-9]{40,}\b"), 0),
    ("notion_token", ("secret_",), (), _tok(r"secret_", r"[A-Za-z0-9]{43}\b"), 0),
    (
        "mapbox_token",
        ("sk.eyJ",),
        (),
        _tok(r"sk\.eyJ", r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
        0,
    ),
    (
        "terraform_token",
        (".atlasv1.",),
        (),
        r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}",
        0,
    ),
    ("pulumi_token", ("pul-",), (), _tok(r"pul-", r"[a-f0-9]{40}\b"), 0),
    (
        "square_token",
        ("sq0atp-", "sq0csp-"),
        (),
        _tok(r"sq0", r"(?:atp|csp)-[A-Za-z0-9_-]{22,}"),
        0,
    ),
    ("square_token", ("EAAA",), (), _tok(r"EAAA", r"[A-Za-z0-9_-]{22,}"), 0),
    (
        "flyio_token",
        ("fm1_", "fm1a_", "fm1r_", "fm2_", "fo1_"),
        (),
        _tok(r"f", r"(?:o1|m1[ar]?|m2)_[A-Za-z0-9+/=_-]{30,}"),
        0,
    ),
    ("firebase_key", ("APA91b",), (), r"\b[A-Za-z0-9_-]{7,}:APA91b[A-Za-z0-9_-]{100,}", 0),
    ("vault_token", ("hvs.", "hvb.", "hvr."), (), _tok(r"hv", r"[sbr]\.[A-Za-z0-9_-]{24,}"), 0),
    (
        # header.payload.signature, both JSON objects in base64url ("ey…"); an escaped slash
        # (`\/`) of a JSON string kept inside
        "jwt",
        (".ey",),
        (),
        _tok(r"ey", r"[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_/\\-]{8,}\.[A-Za-z0-9_/\\=-]*"),
        0,
    ),
    # Formats of the outside oracle (gitleaks' default rules: docs/security.md), each by its
    # own prefix or structure.
    (
        "facebook_token",
        (),
        ("facebook",),
        r"(?<![A-Za-z0-9_])\d{15,16}(?:\||%(?:7[Cc])?)[0-9A-Za-z_-]{27,40}(?![A-Za-z0-9_-])",
        0,
    ),
    (
        "jwt",  # a JWT in base64 ("eyJ" encoded again)
        ("ZXlK",),
        (),
        _tok(r"ZXlK", r"[A-Za-z0-9+/_-]{30,}={0,2}"),
        0,
    ),
    (
        "onepassword_key",
        ("A3-",),
        (),
        _tok(r"A3-", r"[A-Z0-9]{6}-[A-Z0-9-]{11,12}(?:-[A-Z0-9]{5}){3}\b"),
        0,
    ),
    ("onepassword_token", ("ops_eyJ",), (), _tok(r"ops_eyJ", r"[A-Za-z0-9+/]{60,}={0,3}"), 0),
    ("adobe_secret", ("p8e-",), (), _tok(r"p8e-", r"[A-Za-z0-9]{32}\b"), 0),
    ("airtable_token", ("pat",), (), _tok(r"pat", r"[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"), 0),
    ("alibaba_key", ("LTAI",), (), _tok(r"LTAI", r"[A-Za-z0-9]{20}\b"), 0),
    ("artifactory_token", ("AKCp",), (), _tok(r"AKCp", r"[A-Za-z0-9]{69}\b"), 0),
    ("artifactory_token", ("cmVmd",), (), _tok(r"cmVmd", r"[A-Za-z0-9]{59}\b"), 0),
    (
        "authress_key",
        (".acc_", ".acc-"),
        (),
        r"\b(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-]"
        r"[A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}",
        0,
    ),
    ("aws_bedrock_key", ("ABSK",), (), _tok(r"ABSK", r"[A-Za-z0-9+/]{100,}={0,2}"), 0),
    (
        "azure_client_secret",
        ("Q~",),
        (),
        r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
        0,
    ),
    ("clickhouse_key", ("4b1d",), (), _tok(r"4b1d", r"[A-Za-z0-9]{38}\b"), 0),
    ("clojars_token", ("CLOJARS_", "clojars_"), (), _tok(r"(?i:clojars_)", r"[A-Za-z0-9]{60}"), 0),
    ("cloudflare_key", ("v1.0-",), (), _tok(r"v1\.0-", r"[a-f0-9]{24}-[a-f0-9]{146}"), 0),
    ("duffel_token", ("duffel_",), (), _tok(r"duffel_", r"(?:test|live)_[A-Za-z0-9_=-]{43}"), 0),
    (
        "dynatrace_token",
        ("dt0c01.",),
        (),
        _tok(r"dt0c01\.", r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
        0,
    ),
    ("easypost_key", ("EZAK", "EZTK"), (), _tok(r"EZ", r"[AT]K[A-Za-z0-9]{54}\b"), 0),
    ("facebook_token", ("EAAM", "EAAC"), (), _tok(r"EAA", r"[MC][A-Za-z0-9]{100,}"), 0),
    (
        "flutterwave_key",
        ("FLWSECK_TEST", "FLWPUBK_TEST"),
        (),
        _tok(r"FLW", r"(?:SECK|PUBK)_TEST-[A-Ha-h0-9]{12,32}(?:-X)?"),
        0,
    ),
    ("frameio_token", ("fio-u-",), (), _tok(r"fio-u-", r"[A-Za-z0-9_=-]{64}"), 0),
    ("gitlab_token", ("GR1348941",), (), _tok(r"GR1348941", r"[A-Za-z0-9_-]{20}"), 0),
    ("gitlab_token", ("_gitlab_session=",), (), r"_gitlab_session=([0-9a-z]{32})", 1),
    ("grafana_token", ("eyJrIjoi",), (), _tok(r"eyJrIjoi", r"[A-Za-z0-9]{60,}={0,3}"), 0),
    (
        "harness_token",
        ("pat.", "sat."),
        (),
        _tok(r"[ps]at\.", r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
        0,
    ),
    ("heroku_key", ("HRKU-AA",), (), _tok(r"HRKU-AA", r"[A-Za-z0-9_-]{58}"), 0),
    ("huggingface_token", ("api_org_",), (), _tok(r"api_org_", r"[A-Za-z]{34}\b"), 0),
    ("intra42_secret", ("s-s4t2",), (), _tok(r"s-s4t2", r"(?:ud|af)-[a-fA-F0-9]{64}\b"), 0),
    ("maxmind_key", ("_mmk",), (), r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b", 0),
    (
        "teams_webhook",
        ("webhook.office.com",),
        (),
        r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/[^\s'\"<>`]+",
        0,
    ),
    ("octopus_key", ("API-",), (), _tok(r"API-", r"[A-Z0-9]{26}\b"), 0),
    ("openshift_token", ("sha256~",), (), _tok(r"sha256~", r"[A-Za-z0-9_-]{43}"), 0),
    ("readme_token", ("rdme_",), (), _tok(r"rdme_", r"[a-z0-9]{70}\b"), 0),
    ("rubygems_token", ("rubygems_",), (), _tok(r"rubygems_", r"[a-f0-9]{48}\b"), 0),
    ("scalingo_token", ("tk-us-",), (), _tok(r"tk-us-", r"[A-Za-z0-9_-]{48}"), 0),
    ("sendinblue_key", ("xkeysib-",), (), _tok(r"xkeysib-", r"[a-f0-9]{64}-[A-Za-z0-9]{16}"), 0),
    (
        "settlemint_token",
        ("sm_aat_", "sm_pat_", "sm_sat_"),
        (),
        _tok(r"sm_", r"(?:aat|pat|sat)_[A-Za-z0-9]{16}\b"),
        0,
    ),
    ("shippo_token", ("shippo_",), (), _tok(r"shippo_", r"(?:live|test)_[a-fA-F0-9]{40}\b"), 0),
    (
        "sidekiq_credentials",
        ("contribsys.com",),
        (),
        r"\b([a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com",
        1,
    ),
    (
        "sourcegraph_token",
        ("sgp_",),
        (),
        _tok(r"sgp_", r"(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}\b"),
        0,
    ),
    (
        # a legacy Vault token: `s.` and 24 letters and digits, three of each at least
        "vault_token",
        ("s.",),
        (),
        r"(?<![A-Za-z0-9_.-])s\.(?=(?:[A-Za-z]*[0-9]){3})(?=(?:[0-9]*[A-Za-z]){3})[A-Za-z0-9]{24}\b",
        0,
    ),
    (
        # scheme://user:password@host, the user possibly empty (redis://:pw@host)
        "url_password",
        ("://",),
        (),
        r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@'\"\[\]]*:([^/\s@'\"]+)@",
        1,
    ),
    (
        # ?password=…&sig=… in a URL or a JDBC string; an Azure SAS signature
        "url_query_secret",
        (),
        (
            "password=",
            "passwd=",
            "pwd=",
            "pass=",
            "secret=",
            "token=",
            "key=",
            "sig=",
            "signature=",
        ),
        r"(?i)[?&;](?:password|passwd|pwd|pass|secret|client_secret|token|access_token"
        r"|refresh_token|auth_token|api_key|apikey|api-key|key|sig|signature|x-amz-signature"
        r"|x-amz-security-token|x-goog-signature)=" + _VALUE + r"([^&\s'\"#<>]{6,})",
        1,
    ),
    (
        # SQL Server, ADO.NET, ODBC connection strings: …;Password=…; (a `;` on either side
        # tells them from code such as `password = get_password()`)
        "connection_string",
        (),
        ("password", "pwd"),
        r"(?i)(?<![A-Za-z0-9_-])(?:password|pwd)\s*=\s*"
        + _VALUE
        + r"([^;\s\"'&(){}\[\],]{4,})(?=;)",
        1,
    ),
    (
        "connection_string",
        (";",),
        (),
        r"(?i);[ \t]*(?:password|pwd)\s*=\s*" + _VALUE + r"([^;\s\"'&(){}\[\],]{4,})",
        1,
    ),
    (
        # Azure storage and Service Bus: AccountKey=…, SharedAccessKey=…, SharedAccessSignature=…
        "connection_string",
        (),
        ("accountkey", "sharedaccesskey", "sharedaccesssignature"),
        r"(?i)(?<![A-Za-z0-9_-])(?:accountkey|sharedaccesskey|sharedaccesssignature)\s*=\s*"
        r"([^;\s\"'&]{8,})",
        1,
    ),
    (
        "authorization",
        (),
        ("bearer",),
        r"(?i)\bbearer\s+((?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{16,})",
        1,
    ),
    (
        "authorization",
        (),
        ("authorization",),
        r"(?i)\bauthorization[\"']?\s*[:=]\s*[\"']?(?:basic|token|ssws|bot|apikey|key|digest)"
        r"\s+([A-Za-z0-9._~+/=-]{8,})",
        1,
    ),
    (
        "header_secret",
        (),
        ("-key", "apikey", "-token", "-secret", "-password", "-signature"),
        r"(?i)(?<![A-Za-z0-9_.-])[\"']?"
        + _HEADER
        + r"[\"']?\s*:\s*[\"']?(?:bearer\s+|token\s+)?"
        + _VALUE
        + r"([A-Za-z0-9._~+/=:-]{8,})",
        1,
    ),
    (
        # --password=…, --api-key …, -storepass …, -keypass …
        "cli_password",
        (),
        ("-pass", "-token", "-key", "apikey", "-secret", "storepass", "keypass", "-auth"),
        r"(?i)(?<![A-Za-z0-9_-])--?(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token"
        r"|api-?key|secret|storepass|keypass|auth-?token|access-?token)(?:=|[ \t]+)([\"']?)"
        + _VALUE
        + r"(?!-)([^\s\"']{4,})\1",
        2,
    ),
    ("cli_password", ("sshpass",), (), r"\bsshpass\s+-p\s*([\"']?)([^\s\"']+)\1", 2),
    (
        "cli_password",
        ("docker", "podman"),
        (),
        r"\b(?:docker|podman)\s+login\b[^\n]*?\s-p\s*([\"']?)([^\s\"']{4,})\1",
        2,
    ),
    ("cli_password", ("pass:",), (), r"\bpass:([^\s\"']{4,})", 1),
    (
        "cli_password",
        ("from-literal",),
        (),
        r"--from-literal=[^=\s]+=([\"']?)([^\s\"']+)\1",
        2,
    ),
    (
        "url_password",
        ("curl", "wget", "http"),
        (),
        r"(?i)\b(?:curl|wget|http)\b[^\n]*?\s(?:-u|--user|--http-password=?|--password=?)\s*"
        r"[\"']?(?:[^\s:\"']+:)?([^\s\"']{4,})",
        1,
    ),
    (
        "password",
        ("mysql", "mariadb"),
        (),
        r"\b(?:mysql|mysqldump|mariadb)\b[^\n]*?\s-p([^\s-][^\s]{2,})",
        1,
    ),
    (
        "password",
        (),
        ("identified by", "password '"),
        r"(?i)\b(?:identified\s+by|password)\s+'([^'\s]{4,})'",
        1,
    ),
    (
        # .netrc, anywhere in a line
        "password",
        ("machine",),
        (),
        r"\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+([^\s\"']{4,})",
        1,
    ),
    (
        # a line that is `password <value>` and nothing else
        "password",
        ("password",),
        (),
        r"(?im)^[ \t]*password[ \t]+(\S{4,})[ \t]*$",
        1,
    ),
    (
        "docker_auth",
        ('"auth"', '"identitytoken"'),
        (),
        r"\"(?:auth|identitytoken)\"\s*:\s*\"([A-Za-z0-9+/=._-]{8,})\"",
        1,
    ),
    (
        # Shell and .env style: upper-case name, `=`, an unquoted or quoted value.
        "env_secret",
        ("=",),
        (),
        r"(?<![A-Za-z0-9_])(?:export\s+)?"
        + _NAME.replace("a-z", "")
        + r"[ \t]*=[ \t]*([\"']?)"
        + _VALUE
        + r"([^\s\"'`$(){}\[\]<>;,]{4,})\1(?=[\s;,\"'`]|$)",
        2,
    ),
    (
        # YAML, INI, TOML, docker-compose: `name: value` or `name = value`, unquoted, anywhere in
        # a line, the value running to the end of it (or to a comment, a comma, a brace).
        "config_secret",
        (":", "="),
        (),
        r"(?im)(?<![A-Za-z0-9_.-])(?:export[ \t]+)?[\"']?"
        + _NAME
        + r"[\"']?[ \t]*[:=][ \t]*"
        + _VALUE
        + _NOT_A_NAME
        + r"(?![A-Za-z_]\w*\.[A-Za-z_])([^\s\"'`#$(){}\[\]<>;,]{4,})"
        + r"(?=[ \t]*(?:#.*)?$|[ \t]*[,;}\]]|[\"']|[ \t]+[A-Za-z0-9_.-]+[ \t]*[:=][ \t])",
        1,
    ),
    (
        # JSON, YAML, TOML and code: any-case name, a quoted value.
        "password_field",
        ("'", '"'),
        (),
        r"(?i)(?<![A-Za-z0-9_])[\"']?"
        + _NAME
        + r"[\"']?\s*[:=]\s*([\"'])"
        + _VALUE
        + _NOT_A_NAME
        + r"([^\"'\s]{4,})\1",
        2,
    ),
)
_ASSIGNMENT_KINDS = ("env_secret", "config_secret", "password_field")
# Rules matching one unbroken token of 14+ characters that holds their literal trigger (every
# provider format): their triggers are looked for among the text's long words only, which keeps
# the scan of ordinary output cheap however many formats are known.
_TOKEN_RULES = frozenset(
    i
    for i, (kind, _, itriggers, _, group) in enumerate(_RULES)
    if group == 0 and not itriggers and kind != "private_key"
)
_TOKEN_MIN = 14
# The other rules run on the lines around their triggers only, once the text is this long.
_SPAN_MIN = 2048
_MAX_ANCHORS = 2000
# JSON in a JSON string in a tool's JSON output: each level of escaping is read through.
_ESCAPE_LEVELS = 4
_K8S_TRIGGERS = ("kind: Secret", '"kind": "Secret"', '"kind":"Secret"')

_compiled: dict[object, re.Pattern[str]] = {}


def _pattern(i: int) -> re.Pattern[str]:
    pat = _compiled.get(i)
    if pat is None:
        import re  # late: importing re costs ~7 ms, and most hook payloads never need it

        pat = _compiled[i] = re.compile(_RULES[i][3], re.MULTILINE)
    return pat


def _named(name: str, source: str) -> re.Pattern[str]:
    pat = _compiled.get(name)
    if pat is None:
        import re

        pat = _compiled[name] = re.compile(source, re.MULTILINE)
    return pat


def _word_end(text: str, i: int) -> int:
    n = len(text)
    while i < n and not text[i].isspace():
        i += 1
    return i


def _assignments(text: str) -> tuple[bool, bool, bool, list[int]]:
    """Whether `text` may hold (a NAME=value, a `name: value`, a quoted `name: "value"`) whose
    name ends in a secret word, and where: a scan with str.find, so the regexes run only where
    they can match."""
    upper = text.upper().replace("-", "_")  # `db-pass` is named like `DB_PASS`
    env = field = config = False
    anchors: list[int] = []
    for word in (
        "SECRET",
        "PASSW",
        "PASSPHRASE",
        "_PASS",
        "TOKEN",
        "KEY",
        "CREDENTIAL",
        "_PAT",
        "DATABASE_URL",
        "DSN",
    ):
        start = upper.find(word)
        while start != -1:
            i = start + len(word)
            while i < len(upper) and upper[i] in _NAME_CHARS and i - start < 40:
                i += 1
            while i < len(upper) and upper[i] in "\"' \t":
                i += 1
            if i < len(upper) and upper[i] in ":=":
                operator = upper[i]
                i += 1
                while i < len(upper) and upper[i] in " \t":
                    i += 1
                # a value an earlier rule redacted (in part: `postgres://app:[REDACTED:…]@db`)
                # leaves these rules nothing to match, their values stopping at a bracket: the
                # hook then compiles none of their (costly) patterns for it
                if i < len(upper) and "[REDACTED:" not in upper[i : _word_end(upper, i)]:
                    quoted = upper[i] in "\"'"
                    field = field or quoted
                    env = env or operator == "="
                    config = config or not quoted
                    anchors.append(start)
            start = upper.find(word, start + 1)
    return env, config, field, anchors  # flags in the order of _ASSIGNMENT_KINDS


def _replacer(
    kind: str, group: int, found: list[str], secrets: list[str]
) -> Callable[[re.Match[str]], str]:
    mark = f"[REDACTED:{kind}]"

    def sub(m: re.Match[str]) -> str:
        secret = m.group(group)
        if not secret or "[REDACTED:" in secret:
            return m.group(0)
        found.append(kind)
        secrets.append(secret)
        start, end = m.span(group)
        base = m.start(0)
        whole = m.group(0)
        return whole[: start - base] + mark + whole[end - base :]

    return sub


_WHOLE_TEXT_RULES = frozenset(i for i, rule in enumerate(_RULES) if rule[0] == "private_key")
_TOKEN_TRIGGERS = tuple((i, _RULES[i][1]) for i in sorted(_TOKEN_RULES))
_CONTEXT_TRIGGERS = tuple(
    (i, rule[1], rule[2]) for i, rule in enumerate(_RULES) if i not in _TOKEN_RULES
)


# Triggers that are common inside ordinary words ("pat" in `transcript_path`, "s." in
# `os.path`, "-us" in Claude Code's `projects/-home-user-…` transcript folders): they count only where the character `offset` places after them is one of `chars`
# (a space standing for the end of a word), so a hook does not compile a pattern for nothing.
_GUARDS: dict[str, tuple[int, str]] = {
    "pat": (17, "."),  # pat + 14 characters + "." (Airtable)
    "pat.": (26, "."),  # pat. + 22 characters + "." (Harness)
    "sat.": (26, "."),
    "s.": (26, " \"'`,;)]}&"),
    "-us": (
        3,
        "0123456789",
    ),  # a Mailchimp key's data centre; not `-home-user-proj/`  # s. + 24 characters, then the token ends (Vault, legacy)
}


def _guarded(words: str, t: str) -> bool:
    offset, chars = _GUARDS[t]
    j = words.find(t)
    while j != -1:
        if (words[j + offset : j + offset + 1] or " ") in chars:  # past the end: a space
            return True
        j = words.find(t, j + 1)
    return False


_ALL_TOKEN_TRIGGERS = tuple(t for _, triggers in _TOKEN_TRIGGERS for t in triggers)
_QUERY_RULE = next(i for i, rule in enumerate(_RULES) if rule[0] == "url_query_secret")


def _due(text: str) -> list[int]:
    """The rules whose literal trigger occurs in `text`, in table order."""
    due: list[int] = []
    if len(text) >= _TOKEN_MIN:
        words = " ".join(w for w in text.split() if len(w) >= _TOKEN_MIN)
        # one pass in C over every trigger first: most texts hold none
        if words and any(map(words.__contains__, _ALL_TOKEN_TRIGGERS)):
            for i, triggers in _TOKEN_TRIGGERS:
                for t in triggers:
                    if t in words and (t not in _GUARDS or _guarded(words, t)):
                        due.append(i)
                        break
    lower: str | None = None
    for i, triggers, itriggers in _CONTEXT_TRIGGERS:
        hit = False
        for t in triggers:
            if t in text:
                hit = True
                break
        if not hit and itriggers:
            if lower is None:
                lower = text.lower()
            for t in itriggers:
                if t in lower:
                    hit = True
                    break
        if hit and i == _QUERY_RULE and not any(c in text for c in "?&;"):
            hit = False  # `key=` with no query string around it: the assignment rules' case
        if hit:
            due.append(i)
    due.sort()
    return due


def _apply(text: str, found: list[str], secrets: list[str], only_keys: bool = False) -> str:
    """One pass of every rule whose trigger occurs in `text`."""
    for i in (0, 1) if only_keys else _due(text):
        kind, triggers, itriggers, _, group = _RULES[i]
        sub = _replacer(kind, group, found, secrets)
        anchors: list[int] | None = None
        if kind in _ASSIGNMENT_KINDS:
            env, config, field, anchors = _assignments(text)
            if not (env, config, field)[_ASSIGNMENT_KINDS.index(kind)]:
                continue
        if len(text) < _SPAN_MIN or i in _TOKEN_RULES or i in _WHOLE_TEXT_RULES:
            text = _pattern(i).sub(sub, text)
            continue
        if anchors is None:
            anchors = _occurrences(text, triggers, itriggers)
        text = _sub_near(_pattern(i), sub, text, anchors)
    if not only_keys and any(t in text for t in _K8S_TRIGGERS):
        text = _kubernetes_secret(text, found, secrets)
    if not only_keys:
        text = _shaped(text, found, secrets)
        text = _prose(text, found, secrets)
    return text


# -- keys by their shape ------------------------------------------------------------------------
# A provider's token that no rule above knows: a short tag and `_` or `-` (`xyz_`, `acme_live_`,
# `tok-`), then a key-length random run. And a random run right after a word that names a
# credential ("api key 3fQ…", "token: 9c1…"). Random means long, with upper case, lower case and
# digits all three (or, after a tag or a name that says "secret", long hexadecimal or lower-case
# letters with many digits), and varied enough: a word, a date, a path, a version or an id is
# not. Plain string scanning over the text's long words only.
_SHAPE_MIN = 20  # the random run
_HEX_MIN = 32  # a run with only one case of letters (hex, base36): ids and digests look alike
_TAG_MAX = 30
# Tags and names of things that are ids, digests and build artefacts, never credentials.
_NOT_KEY_TAGS = frozenset(
    """sha1 sha224 sha256 sha384 sha512 md5 blake2b blake2s blake3 crc32 integrity commit rev
    revision build run trace span req request cus ch pi pm seti sub in price acct evt txn file
    img image asset chunk cache etag uuid guid id oid msg message thread conv job task node pod
    container layer blob obj object doc page data base64 b64 hash digest checksum nonce salt font
    icon css js main vendor runtime polyfills styles module test spec fixture snapshot example
    sample demo dummy fake mock tmp temp v1 v2 v3 ses prt part call toolu chatcmpl resp response
    turn item rs fc srvtoolu""".split()
)
_SECRET_TAGS = frozenset(
    """key keys secret secrets sk tok token tokens pat api apikey live prod auth access priv
    private sec pass pwd cred creds session sess bot svc service admin master deploy client
    server webhook hook signing refresh bearer personal org""".split()
)
_KEY_NAMES = ("token", "secret", "api key", "apikey", "api_key", "api-key", "access key",
              "auth", "password", "credential", "private key", "key")  # fmt: skip
_STRONG_NAMES = _KEY_NAMES[:-1]


def _classes(run: str) -> tuple[bool, bool, bool]:
    upper = lower = digit = False
    for c in run:
        if c.isdigit():
            digit = True
        elif c.isupper():
            upper = True
        else:
            lower = True
    return upper, lower, digit


def _varied(run: str, bits: float) -> bool:
    """Shannon entropy of the run's characters, per character, at least `bits`."""
    import math

    counts: dict[str, int] = {}
    for c in run:
        counts[c] = counts.get(c, 0) + 1
    n = len(run)
    return -sum(k / n * math.log2(k / n) for k in counts.values()) >= bits


def _random_run(run: str, secret_named: bool) -> bool:
    if len(run) < _SHAPE_MIN or not run.isascii() or not run.isalnum():
        return False
    upper, lower, digit = _classes(run)
    if upper and lower and digit:
        return _varied(run, 3.5)
    if not secret_named or len(run) < _HEX_MIN or not digit or (upper and lower):
        return False
    digits = sum(c.isdigit() for c in run)
    return 0.15 <= digits / len(run) <= 0.85 and _varied(run, 3.3)


# ASCII punctuation but `_` and `-` as spaces: what is left are the runs a token can be.
_NOT_TOKEN = str.maketrans(
    {c: " " for c in map(chr, range(33, 127)) if not (c.isalnum() or c in "_-")}
)


def _token_spans(word: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of key-shaped runs in one whitespace-free word."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    for run in word.translate(_NOT_TOKEN).split():
        i = word.find(run, pos)
        pos = i + len(run)
        if len(run) >= _SHAPE_MIN + 2 and ("_" in run or "-" in run):
            span = _tagged(word, i, pos)
            if span is not None:
                out.append(span)
    return out


def _tagged(word: str, i: int, j: int) -> tuple[int, int, str] | None:
    """A run `tag_random…` or `tag-random…`: the tag one to four short parts."""
    parts = word[i:j].replace("-", "_").split("_")
    for k in range(1, min(5, len(parts))):
        if not _random_run(parts[k], False) and not _random_run(parts[k], True):
            continue
        tag = parts[:k]
        if sum(len(t) + 1 for t in tag) > _TAG_MAX or not all(
            t[:1].isalpha() and len(t) <= 12 and t.isalnum() for t in tag
        ):
            return None
        lowered = [t.lower() for t in tag]
        if any(t in _NOT_KEY_TAGS for t in lowered) or word[i - 1 : i] in ("/", "."):
            return None
        if not _random_run(parts[k], False) and not any(t in _SECRET_TAGS for t in lowered):
            return None  # hex or one-case: only a tag that says it is a key makes it one
        return i, j, "api_token"
    return None


def _named_before(before: str) -> str | None:
    """The credential name that ends `before`, with at most a link (`:`, `=`, "is") between it
    and what follows; None when there is none (or it names a public key)."""
    for name in _KEY_NAMES:
        at = before.rfind(name)
        if at == -1 or (at and before[at - 1].isalnum()):
            continue
        gap = before[at + len(name) :]
        if len(gap) > 12 or gap.strip(" \t:=\"'`>-") not in ("", "is", "was"):
            continue
        if before[:at].rstrip().endswith(("public", "publishable", "begin")):
            return None
        return name
    return None


def _shaped(text: str, found: list[str], secrets: list[str]) -> str:
    """Key-shaped tokens no provider rule knows, and random runs named as credentials."""
    if len(text) < _SHAPE_MIN:
        return text
    spans: list[tuple[int, int, str]] = []
    pos = 0
    lower: str | None = None
    for word in text.split():
        if len(word) < _SHAPE_MIN:
            continue
        start = text.find(word, pos)
        pos = start + len(word)
        if "[REDACTED:" in word:
            continue
        tagged = _token_spans(word)
        spans.extend((start + s, start + e, kind) for s, e, kind in tagged)
        if tagged:
            continue
        run_start = 0
        for part in word.replace("=", " ").replace(":", " ").replace('"', " ").split(" "):
            at = word.find(part, run_start)
            run_start = at + len(part)
            core = part.strip("'\",;.()[]{}<>`")
            if len(core) < _SHAPE_MIN or not core.isalnum():
                continue
            if lower is None:
                lower = text.lower()
            name = _named_before(lower[max(0, start + at - 40) : start + at])
            if name is not None and _random_run(core, name in _STRONG_NAMES):
                s = start + at + part.find(core)
                spans.append((s, s + len(core), "labelled_secret"))
    if not spans:
        return text
    out: list[str] = []
    done = 0
    for s, e, kind in sorted(spans):
        if s < done:
            continue
        out.append(text[done:s])
        out.append(f"[REDACTED:{kind}]")
        found.append(kind)
        secrets.append(text[s:e])
        done = e
    out.append(text[done:])
    return "".join(out)


# -- secrets typed in prose ----------------------------------------------------------------------
# A person telling an agent a password: "the admin password for the staging box is …", "root pw
# on build01 = …, don't lose it", "use … to log in", "… is the password for the kafka user". No
# format gives such a value away, so the rule reads the sentence: a credential word (a cue), a
# few words naming what it is for, a link ("is", "=", ":", "to", "->"), then a value that looks
# like a password rather than a word ("the password is stored in the vault", "must be 12
# characters", "is sha256-hashed" are kept). Plain string scanning, no regex: prompts are full of
# "pass" and "pin", and the hook must not pay for `re` on every one.
_CUE_WORD, _CUE_PIN, _CUE_PHRASE, _CUE_PAIR = "word", "pin", "phrase", "pair"
# A code (a door's, an alarm's, a recovery code): digits, or groups of letters and digits; a
# bare "code" only after a link ("the code is …": "error code 4031" is not one).
_CUE_CODE, _CUE_CODE_LINKED = "code", "code-linked"
_PROSE_CUES: tuple[tuple[str, str], ...] = (
    ("password", _CUE_WORD),
    ("passwd", _CUE_WORD),
    ("passwort", _CUE_WORD),
    ("pass", _CUE_WORD),
    ("pwd", _CUE_WORD),
    ("pw", _CUE_WORD),
    ("secret", _CUE_WORD),
    ("auth", _CUE_WORD),
    ("wifi key", _CUE_WORD),
    ("wi-fi key", _CUE_WORD),
    ("mot de passe", _CUE_WORD),
    ("contraseña", _CUE_WORD),
    ("senha", _CUE_WORD),
    ("wachtwoord", _CUE_WORD),
    ("kennwort", _CUE_WORD),
    ("hasło", _CUE_WORD),
    ("haslo", _CUE_WORD),
    ("clave", _CUE_WORD),
    ("parola d'ordine", _CUE_WORD),
    ("パスワード", _CUE_WORD),
    ("wpa2", _CUE_WORD),
    ("wpa", _CUE_WORD),
    ("passphrase", _CUE_PHRASE),
    ("master phrase", _CUE_PHRASE),
    ("recovery phrase", _CUE_PHRASE),
    ("seed phrase", _CUE_PHRASE),
    ("mnemonic", _CUE_PHRASE),
    ("pin", _CUE_PIN),
    ("passcode", _CUE_PIN),
    ("combination", _CUE_PIN),
    ("combo", _CUE_PIN),
    ("backup code", _CUE_CODE),
    ("recovery code", _CUE_CODE),
    ("door code", _CUE_CODE),
    ("alarm code", _CUE_CODE),
    ("gate code", _CUE_CODE),
    ("access code", _CUE_CODE),
    ("zugangscode", _CUE_CODE),
    ("code", _CUE_CODE_LINKED),
    ("kod", _CUE_CODE_LINKED),
    ("creds", _CUE_PAIR),
    ("credentials", _CUE_PAIR),
    ("login", _CUE_PAIR),
)
_PROSE_TRIGGERS = ("pass", "pw", "pin", "secret", "auth", "cred", "login", "key", "contrase",
                   "senha", "wachtwoord", "phrase", "mnemonic", "log in", "sign in", "code",
                   "kod", "combo", "combination", "kennwort", "hasł", "haslo", "clave",
                   "parola", "パスワード", "wpa")  # fmt: skip
# Words joining what a secret is for to the secret itself.
_LINKS = frozenset(
    "is are was were = : -> => → — – - to as := equals ist est es é è era war lautet jest "
    "は が".split()
)
# Words that may stand between a link and the value ("was reset to …", "is now …").
_FILLERS = frozenset("now still literally currently just actually simply reset set changed "
                     "updated to be been has have is was as ended up".split())  # fmt: skip
# After the cue, a noun that makes it a modifier: "password manager is …", "secret name is …".
_MODIFIED = frozenset(
    """manager managers policy policies field fields hash hashes hashing length rule rules
    requirement requirements strength prompt prompts file files variable variables env name
    names input dialog expiry expiration rotation history complexity reset resets protected
    less hint hints form column param parameter argument attribute option flag store storage
    check checks validation change changes update updates salt encryption sauce rate generator
    entry box screen page mode authentication based module handler middleware flow token
    tokens header headers type id ids count counts number""".split()
)
# Words that end the part naming what the secret is for: what follows is another clause.
_CLAUSE = frozenset("and or but so because if when which that who then where while".split())
# A value holding one of these names where a secret is kept, or a placeholder, not the secret.
_NOT_A_SECRET = ("password", "passwd", "secret", "token", "environ", "getenv", "example",
                 "changeme", "redacted", "xxxx", "****", "your_", "your-", "placeholder")  # fmt: skip
# Stems of technical terms written with digits (sha256, utf-8, python3.12, user_id2, v2, 2fa).
_TECH = frozenset(
    """sha md aes rsa utf ucs base argon argon2id pbkdf bcrypt scrypt blake crc ecdsa ed curve x
    p v ipv tls ssl http https oauth iso rfc pkcs win cp latin fido u2f totp hotp mfa fa hs rs es
    ps h w rc beta alpha rev build id no num node py python go java jdk ubuntu debian el fc gpt
    x86 arm arm64 amd64 i386 k8s s3 ec2 gen tier level step mp ddr usb wpa wpa2 wpa3 nist
    bit bits char chars character characters digit digits byte bytes day days hour hours min
    minute minutes week weeks month months year years kb mb gb tb ms""".split()
)
_QUOTES = {"'": "'", '"': '"', "`": "`", "“": "”", "‘": "’", "«": "»"}
_PHRASE_STOP = frozenset("a an the is to of and or in on for with use must should be it at least "
                         "long one we you not never your our my this that".split())  # fmt: skip
_PAIR_SEP = ("/", ":")
_TRIM = ",;.)?:\"'}]>"  # what ends a sentence, a quoted string or a bracket, after a value


def _prose_words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the whitespace-separated words of text[start:end]."""
    out = []
    pos = start
    for word in text[start:end].split():
        s = text.find(word, pos, end)
        out.append((s, s + len(word)))
        pos = s + len(word)
    return out


# A value must hold a digit, a symbol or a quote (or, after "passphrase", be words): a window
# without any is passed over before it is split into words ("PASS src/app.test.js" in test logs).
_CLAUSE_ENDS = (", ", ". ", "; ", "? ", "! ")
_VALUE_MARKS = tuple("0123456789!#$%&*+=?@^~'\"`“‘«")


def _technical(value: str, loose: bool = False) -> bool:
    """Whether a value of letters and digits reads as a technical term, a version or an id
    (sha256-hashed, python3.12, user_id2, v2, 256-bit, worker-2, a commit id) rather than a
    password (sunflower1987, Orchard-Falcon-81, r3d1s-lantern)."""
    pieces = value.replace("_", "-").replace(".", "-").replace("+", "-").split("-")
    words = glued = 0
    for p in pieces:
        low = p.lower()
        if not p or p.isdigit():
            continue
        if p[1:] != low[1:]:
            return False  # upper case inside a word: Kp3zXw, camelCase with digits
        if low in _TECH or low.rstrip("0123456789") in _TECH or low.lstrip("0123456789") in _TECH:
            return True
        if len(p) >= 7 and all(c in "0123456789abcdef" for c in low):
            return True  # a commit id or a digest
        if p.isalpha():
            words += 1
            continue
        stem = low.rstrip("0123456789")
        if not stem.isalpha() or len(low) - len(stem) >= 3:
            return False  # digits inside (r3d1s) or a year glued on (walrus2019)
        glued += 1
    # Words and numbers: one word with a number is a name (worker-2, build7, release-2026);
    # two words or more with a number is how people make passwords (ivory-lantern-fog-52).
    return words + glued <= 1 and not loose


def _password_like(value: str, strong: bool = False, loose: bool = False) -> bool:
    """Whether a word reads as a password: letters with digits or symbols, not a word, a
    number, an id, a technical term, a path, an address, a reference or a placeholder. `strong`
    (no link word before it): upper case, lower case and digits, or a symbol."""
    if not 6 <= len(value) <= 64 or value[0] in "$%<{[(-@":
        return False
    if any(c in value for c in "()[]{}<>`\\|") or "://" in value or value[0] in "/~.":
        return False
    low = value.lower()
    if any(w in low for w in _NOT_A_SECRET) or "[redacted:" in low:
        return False
    if value.count("@") == 1 and "." in value.split("@")[1]:
        local = value.split("@")[0]
        if local.replace(".", "").replace("_", "").replace("-", "").isalnum():
            return False  # an e-mail address
    parts = value.split(".")
    if len(parts) >= 2 and all(p[:1].isalpha() and p.replace("_", "").isalnum() for p in parts):
        return False  # a dotted name: settings.db, obj.attr
    lower = upper = digit = symbol = False
    for c in value:
        if c.islower():
            lower = True
        elif c.isupper():
            upper = True
        elif c.isdigit():
            digit = True
        elif c not in "-_./:":  # structure (paths, times, names), not a symbol a password has
            symbol = True
    letters = lower or upper
    if symbol and letters:
        return True
    if digit and letters and not _technical(value, loose):
        return not strong or (upper and lower)
    return False


def _quoted_value(text: str, s: int, end: int) -> tuple[int, int] | None:
    """The span inside the quotes opening at `s`, when it holds a secret: a password-like word,
    or several words (a passphrase)."""
    close = text.find(_QUOTES[text[s]], s + 1, end)
    if close == -1:
        return None
    value = text[s + 1 : close]
    if not 4 <= len(value) <= 120 or any(w in value.lower() for w in _NOT_A_SECRET):
        return None
    words = value.split()
    if len(words) >= 3 and all(w.isalnum() for w in words):
        return s + 1, close  # a passphrase
    return (s + 1, close) if _password_like(value) or (len(value) >= 8 and " " not in value
                                                       and not value.isalpha()) else None  # fmt: skip


def _value_at(
    text: str, s: int, e: int, end: int, kind: str, strong: bool, after_sep: bool
) -> tuple[int, int] | None:
    """The span of the secret in the word text[s:e], if it holds one for a cue of `kind`."""
    if text[s] in _QUOTES:
        return _quoted_value(text, s, end) if kind in (_CUE_WORD, _CUE_PHRASE) else None
    value = text[s:e]
    while value and value[-1] in _TRIM:
        value = value[:-1]
    if kind in (_CUE_PIN, _CUE_CODE, _CUE_CODE_LINKED):
        lead = len(value) - len(value.lstrip("*#"))
        if _pin_like(value[lead:]) or (kind == _CUE_CODE and _code_like(value)):
            return s + lead, s + len(value)
        return None
    for sep in _PAIR_SEP:  # user:password, user/password
        if value.count(sep) == 1 and "://" not in value:
            user, secret = value.split(sep)
            named = user.replace(".", "").replace("_", "").replace("-", "").isalnum()
            if named and _password_like(secret):
                start = s + len(user) + 1
                return start, start + len(secret)
    if kind == _CUE_PAIR and not after_sep:
        return None
    # after "password is" a word with a number is one (sakura-2024), not a name as elsewhere
    loose = kind == _CUE_WORD and not strong
    return (s, s + len(value)) if _password_like(value, strong, loose) else None


def _pin_like(value: str) -> bool:
    """Digits, 4 to 12, maybe in groups of up to four (`1-9-4-6`, `36-24-12`)."""
    groups = value.replace("-", " ").split()  # not `.`: a version (18.2.0) is no PIN
    digits = "".join(groups)
    return (
        bool(groups) and all(g.isdigit() and len(g) <= 4 for g in groups) and 4 <= len(digits) <= 12
    ) or (value.isdigit() and 4 <= len(value) <= 12)


def _code_like(value: str) -> bool:
    """A recovery code: groups of 3 to 8 letters and digits joined by `-`, digits among them."""
    groups = value.split("-")
    return (
        len(groups) >= 2
        and all(3 <= len(g) <= 8 and g.isascii() and g.isalnum() for g in groups)
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


def _spaced_digits(text: str, words: list[tuple[int, int]], k: int) -> tuple[int, int] | None:
    """ "4 4 1 9": four or more single digits, one word each."""
    run = 0
    for s, e in words[k:]:
        bare = text[s:e].rstrip(_TRIM)
        if len(bare) != 1 or not bare.isdigit():
            break
        run += 1
    if run >= 4:
        return words[k][0], words[k + run - 1][0] + 1
    return None


def _phrase_at(text: str, words: list[tuple[int, int]], k: int) -> tuple[int, int] | None:
    """A passphrase of plain words from word k to the end of its clause."""
    first, last = words[k][0], None
    for s, e in words[k : k + 24]:
        w = text[s:e]
        bare = w.rstrip(_TRIM)
        if not bare.isalnum() or bare.lower() in _PHRASE_STOP or bare != bare.lower():
            return None
        last = s + len(bare)
        if len(bare) != len(w):
            break
    if last is None or sum(1 for s, e in words[k:] if s < last) < 3:
        return None
    return first, last


def _after_cue(text: str, lower: str, j: int, kind: str) -> tuple[int, int] | None:
    end = text.find("\n", j)
    end = min(len(text) if end == -1 else end, j + 240)
    for stop in _CLAUSE_ENDS:  # the value is in the cue's clause (it may end it: "is X.")
        at = text.find(stop, j, end)
        if at != -1:
            end = at + 1
    if kind != _CUE_PHRASE:
        window = text[j:end]
        if not any(mark in window for mark in _VALUE_MARKS):
            return None
    words = _prose_words(text, j, end)
    if not words:
        return None
    first = lower[words[0][0] : words[0][1]].rstrip(_TRIM)
    if first in _MODIFIED:
        return None
    linked = text[j : words[0][0]].strip() == "" and text[j : j + 1] in ":="  # "pw:" "pw=…"
    if text[j : j + 1] in ":=" and words[0][0] == j:  # "pw:value", "pw=value": the value is glued
        glued = words[0][0] + 1
        if glued < words[0][1]:
            return _value_at(text, glued, words[0][1], end, kind, False, False)
        linked = True
        words = words[1:]
    context = 0
    after_sep = False
    for k, (s, e) in enumerate(words):
        raw = text[s:e]
        word = lower[s:e].strip(_TRIM + "!\"'")
        if linked or after_sep or (k == 0 and kind != _CUE_CODE_LINKED):
            span = _value_at(text, s, e, end, kind, not (linked or after_sep), after_sep)
            if span is None and linked and kind == _CUE_PHRASE:
                span = _phrase_at(text, words, k)
            if span is None and kind in (_CUE_PIN, _CUE_CODE, _CUE_CODE_LINKED):
                span = _spaced_digits(text, words, k)
            if span is None and linked and kind == _CUE_PAIR:
                # "my Windows login is still …": the value itself, when it reads as one
                value = raw.rstrip(_TRIM)
                span = (s, s + len(value)) if _password_like(value, strong=True) else None
            if span is not None:
                return span
        after_sep = raw in _PAIR_SEP
        if after_sep:
            continue
        if word in _LINKS or raw in _LINKS:
            linked = True
            continue
        if linked and word in _FILLERS:
            continue
        if raw.endswith((":", "=")) and raw[-2:-1] not in (":", "="):
            linked = True
            context += 1
            continue
        linked = False
        context += 1
        if context > 7 or word in _CLAUSE or raw[-1:] in ",;.?!":
            return None
    return None


def _before_cue(text: str, lower: str, i: int) -> tuple[int, int] | None:
    """ "X is the password for …", "… uses X as its password": the value before the cue."""
    near = lower[max(0, i - 60) : i]
    if " is " not in near and " was " not in near and " as " not in near:
        return None
    start = text.rfind("\n", 0, i) + 1
    words = _prose_words(text, max(start, i - 160), i)[-6:]
    for k in range(len(words) - 1, 0, -1):
        link = lower[words[k][0] : words[k][1]]
        if link not in ("is", "was", "as"):
            continue
        s, e = words[k - 1]
        verb = lower[words[k - 2][0] : words[k - 2][1]].strip(_TRIM + "\"'(") if k >= 2 else ""
        if link == "as" and verb not in ("use", "uses", "using"):
            return None
        if text[s] in _QUOTES:
            opening = s
            while opening < e and text[opening] in _QUOTES:
                opening += 1
            inner = text[opening:e].rstrip(_TRIM + "".join(_QUOTES.values()))
            return (opening, opening + len(inner)) if _password_like(inner) else None
        value = text[s:e].rstrip(_TRIM)
        return (s, s + len(value)) if _password_like(value, strong=True) else None
    return None


def _use_to_log_in(text: str, lower: str) -> list[tuple[int, int]]:
    """ "use X to log in", "use X to sign in to …"."""
    spans = []
    for verb in ("use ", "using "):
        i = lower.find(verb)
        while i != -1:
            if i == 0 or not lower[i - 1].isalnum():
                words = _prose_words(text, i + len(verb), min(len(text), i + len(verb) + 120))
                if len(words) >= 3:
                    tail = " ".join(lower[s:e] for s, e in words[1:4])
                    if tail.startswith(("to log in", "to sign in", "to login", "to authenticate",
                                        "to unlock", "as the password", "as password")):  # fmt: skip
                        s, e = words[0]
                        span = _value_at(text, s, e, len(text), _CUE_WORD, True, False)
                        if span is not None:
                            spans.append(span)
            i = lower.find(verb, i + 1)
    return spans


_CODE_LINKS = frozenset(("is", ":", "=", "est", "es", "to", "lautet", "jest", "é", "ist"))
# Saying a secret without naming it: signing in *with* it, a disk that opens *with* it, typing it
# at a prompt, a `user / secret` pair, a Wi-Fi QR code. Each verb takes the word right after its
# preposition, when that word reads as a password (or a quoted one, or a phrase after a colon).
_LOGIN_VERBS = ("log in", "logs in", "logged in", "log into", "logs into", "sign in", "signs in",
                "sign into", "melde dich", "connect as")  # fmt: skip
_OPEN_VERBS = ("unlock", "unlocks", "opens", "open", "decrypt", "decrypts")
_PROMPT_WORDS = ("prompt", "asks", "boot", "sudo", "unlock", "log in", "sign in", "enter",
                 "login")  # fmt: skip
_LOCKED_THINGS = ("luks", "volume", "disk", "drive", "vault", "encrypted", "safe", "zip", "pdf",
                  "archive", "keychain")  # fmt: skip


def _clause_end(text: str, j: int) -> int:
    end = text.find("\n", j)
    end = min(len(text) if end == -1 else end, j + 160)
    for stop in (". ", "; ", "? ", "! "):
        at = text.find(stop, j, end)
        if at != -1:
            end = at + 1
    return end


def _word_after(text: str, lower: str, at: int, preps: tuple[str, ...], within: int) -> int:
    """Where the word after the first of `preps` (within `within` words of `at`) starts; -1."""
    end = _clause_end(text, at)
    words = _prose_words(text, at, end)[: within + 1]
    for k, (s, e) in enumerate(words[:-1]):
        w = lower[s:e].rstrip(",:")
        if w in preps:
            return words[k + 1][0]
    return -1


def _secret_word(text: str, s: int, strong: bool = False) -> tuple[int, int] | None:
    """The password (or quoted passphrase, or words after a colon) starting at `s`."""
    end = _clause_end(text, s)
    if text[s] in _QUOTES:
        return _quoted_value(text, s, end)
    e = s
    while e < len(text) and not text[e].isspace():
        e += 1
    value = text[s:e]
    while value and value[-1] in _TRIM:
        value = value[:-1]
    lead = len(value) - len(value.lstrip("*#"))  # *4417 at an intercom
    if _pin_like(value[lead:]):
        return s + lead, s + len(value)
    if _password_like(value, strong) or _hyphen_phrase(value):
        return s, s + len(value)
    return None


def _hyphen_phrase(value: str) -> bool:
    """violet-anchor-moss-telescope: three or more lower-case words of 3+ letters."""
    parts = value.split("-")
    return len(parts) >= 3 and all(len(p) >= 3 and p.isalpha() and p.islower() for p in parts)


def _said_without_the_word(text: str, lower: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []

    def each(word: str) -> list[int]:
        out, i = [], lower.find(word)
        while i != -1:
            if (i == 0 or not lower[i - 1].isalnum()) and not lower[
                i + len(word) : i + len(word) + 1
            ].isalnum():
                out.append(i)
            i = lower.find(word, i + 1)
        return out

    linked = " with" in lower or " using " in lower or " mit " in lower
    logs_in = "log" in lower or "sign" in lower or "melde" in lower or "connect as" in lower
    for verb in _LOGIN_VERBS if linked and logs_in else ():
        for i in each(verb):
            at = _word_after(text, lower, i + len(verb), ("using", "with", "mit"), 8)
            span = _secret_word(text, at) if at != -1 else None
            if span:
                spans.append(span)
    opens = "unlock" in lower or "open" in lower or "decrypt" in lower
    for verb in _OPEN_VERBS if " with" in lower and opens else ():
        for i in each(verb):
            at = _word_after(text, lower, i + len(verb), ("with",), 6)
            if at == -1:
                continue
            span = _secret_word(text, at)
            if span is None and text[at - 2 : at - 1] == ":":  # "unlocks with: marble orbit …"
                span = _phrase_at(text, _prose_words(text, at, _clause_end(text, at)), 0)
            if span:
                spans.append(span)
    if ("type" in lower or "use" in lower) and any(w in lower for w in _PROMPT_WORDS):
        for i in each("type"):
            words = _prose_words(text, i + 4, _clause_end(text, i + 4))
            span = _secret_word(text, words[0][0]) if words else None
            if span:
                spans.append(span)
        for i in each("use"):
            s = i + 4
            if s < len(text) and text[s] in _QUOTES:
                span = _quoted_value(text, s, _clause_end(text, s))
                if span and _password_like(text[span[0] : span[1]], strong=True):
                    spans.append(span)
    if "takes" in lower and any(w in lower for w in _LOCKED_THINGS):
        for i in each("takes"):
            words = _prose_words(text, i + 5, _clause_end(text, i + 5))
            if words:
                value = text[words[0][0] : words[0][1]].rstrip(_TRIM)
                if _password_like(value):
                    spans.append((words[0][0], words[0][0] + len(value)))
    for i in each("asks for"):
        words = _prose_words(text, i + 8, _clause_end(text, i + 8))
        if words:
            value = text[words[0][0] : words[0][1]].rstrip(_TRIM)
            if value.isdigit() and 4 <= len(value) <= 8:
                spans.append((words[0][0], words[0][0] + len(value)))
    at = text.find(" / ")
    while at != -1:  # user / secret
        left = text[:at].split()
        right = text[at + 3 :].split()
        if left and right:
            user = left[-1].strip("(\"'")
            value = right[0].rstrip(_TRIM)
            named = user.replace(".", "").replace("_", "").replace("-", "").replace("@", "")
            if named.isalnum() and not named.isdigit() and _password_like(value, strong=True):
                s = at + 3 + text[at + 3 :].find(right[0])
                spans.append((s, s + len(value)))
        at = text.find(" / ", at + 1)
    for i in each("it's"):
        words = _prose_words(text, i + 4, _clause_end(text, i + 4))
        if words:
            value = text[words[0][0] : words[0][1]].rstrip(_TRIM)
            if _password_like(value, strong=True) and any(not c.isalnum() for c in value):
                spans.append((words[0][0], words[0][0] + len(value)))
    at = text.find("WIFI:")
    if at != -1:  # a Wi-Fi QR code: WIFI:T:WPA;S:name;P:secret;;
        p = text.find(";P:", at, at + 200)
        if p == -1:
            p = text.find(":P:", at, at + 200)
        if p != -1:
            close = text.find(";", p + 3)
            if close > p + 3:
                spans.append((p + 3, close))
    return spans


def _prose(text: str, found: list[str], secrets: list[str]) -> str:
    """Passwords typed in sentences, replaced by `[REDACTED:password]`."""
    lower = text.lower()
    if len(lower) != len(text):  # a character whose lower case is longer: keep positions
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    spans = _said_without_the_word(text, lower)
    for cue, kind in _PROSE_CUES if any(map(lower.__contains__, _PROSE_TRIGGERS)) else ():
        i = lower.find(cue)
        while i != -1:
            j = i + len(cue)
            before = lower[i - 1] if i else " "
            if j < len(lower) and lower[j] == "s" and kind != _CUE_PIN:
                j += 1 if j + 1 == len(lower) or not lower[j + 1].isalnum() else 0
            after = lower[j] if j < len(lower) else " "
            # a word of a sentence, not part of a name, a path or a URL (`?q=auth&…`); a word
            # of a language written without spaces stands where it stands
            if kind == _CUE_CODE_LINKED and not any(
                w in _CODE_LINKS or w.endswith(":") for w in lower[j : j + 40].split()[:3]
            ):
                pass  # "error code 4031 means …": no link after it, no value to look for
            elif ord(cue[0]) >= 0x3000 or (
                (before.isspace() or before in "\"'(*>[{")
                and (after.isspace() or after in ":=\"',.;!?)}]")
            ):
                span = _after_cue(text, lower, j, kind)
                if span is None and kind != _CUE_PAIR:
                    span = _before_cue(text, lower, i)
                if span is not None:
                    spans.append(span)
            i = lower.find(cue, i + 1)
    if "log in" in lower or "sign in" in lower or "login" in lower or "unlock" in lower:
        spans.extend(_use_to_log_in(text, lower))
    if not spans:
        return text
    out: list[str] = []
    done = 0
    for s, e in sorted(set(spans)):
        if s < done:
            continue
        secret = text[s:e]
        if "[REDACTED:" in secret:
            continue
        out.append(text[done:s])
        out.append("[REDACTED:password]")
        found.append("password")
        secrets.append(secret)
        done = e
    out.append(text[done:])
    return "".join(out)


def _occurrences(text: str, triggers: tuple[str, ...], itriggers: tuple[str, ...]) -> list[int]:
    """Where the triggers occur (None-like empty list when they cannot be placed: the caller
    then runs the rule on the whole text)."""
    out: list[int] = []
    lower = text.lower() if itriggers else text
    if len(lower) != len(text):  # lower-casing changed lengths: positions would not line up
        return [-1]
    for haystack, needles in ((text, triggers), (lower, itriggers)):
        for t in needles:
            j = haystack.find(t)
            while j != -1:
                out.append(j)
                if len(out) > _MAX_ANCHORS:
                    return [-1]
                j = haystack.find(t, j + 1)
    return out


def _sub_near(
    pattern: re.Pattern[str], sub: Callable[[re.Match[str]], str], text: str, anchors: list[int]
) -> str:
    """`pattern.sub` on the lines around each anchor only (the line, and the next one for a
    value that follows its name on a new line): the rules that need a name before the secret
    would otherwise try every position of a long text."""
    if not anchors or -1 in anchors:
        return pattern.sub(sub, text) if anchors else text
    spans: list[list[int]] = []
    for p in sorted(anchors):
        start = text.rfind("\n", 0, p) + 1
        end = text.find("\n", p)
        end = len(text) if end == -1 else text.find("\n", end + 1)
        end = len(text) if end == -1 else end
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    out: list[str] = []
    done = 0
    for start, end in spans:
        out.append(text[done:start])
        out.append(pattern.sub(sub, text[start:end]))
        done = end
    out.append(text[done:])
    return "".join(out)


def _kubernetes_secret(text: str, found: list[str], secrets: list[str]) -> str:
    """Every value under `data:` / `stringData:` of a Kubernetes Secret (YAML or JSON): its key
    names say nothing (`username`, `tls.key`, `config.json`), the kind of object says it all."""
    mark = "[REDACTED:kubernetes_secret]"

    def value_line(m: re.Match[str]) -> str:
        value = m.group(2)
        if not value or value in ("|", ">", "|-", ">-") or "[REDACTED:" in value:
            return m.group(0)
        found.append("kubernetes_secret")
        secrets.append(value)
        return m.group(1) + mark

    def yaml_block(m: re.Match[str]) -> str:
        body = _named("k8s_line", r"^([ \t]+(?:[^:\s]+:[ \t]*)?)(\S.*?)[ \t]*$").sub(
            value_line, m.group(4)
        )
        return m.group(1) + m.group(2) + ":" + m.group(3) + body

    def json_value(m: re.Match[str]) -> str:
        if "[REDACTED:" in m.group(2):
            return m.group(0)
        found.append("kubernetes_secret")
        secrets.append(m.group(2))
        return m.group(1) + mark + m.group(3)

    def json_block(m: re.Match[str]) -> str:
        return m.group(1) + _named("k8s_json_value", r'("[^"]+"\s*:\s*")([^"]+)(")').sub(
            json_value, m.group(2)
        )

    text = _named(
        "k8s_yaml",
        r"^([ \t]*)(data|stringData):([ \t]*\r?\n)((?:\1[ \t]+\S[^\n]*(?:\n|$))+)",
    ).sub(yaml_block, text)
    return _named("k8s_json", r'("(?:data|stringData)"\s*:\s*\{)([^{}]*)').sub(json_block, text)


def _unescaped(text: str) -> str:
    """`text` read as the body of a JSON (or YAML double-quoted) string: \\" \\n \\t \\/ \\\\
    and \\uXXXX escapes resolved. Only what changes what a secret looks like is resolved."""
    if "\\\\" in text:
        text = text.replace("\\\\", "\ue000")
    for escaped, plain in (('\\"', '"'), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"), ("\\/", "/")):
        if escaped in text:
            text = text.replace(escaped, plain)
    if "\\u" in text:
        # \uXXXX: a link word such as "—" or "für" must read as itself, and a secret may hold
        # such a character too (it is replaced through its escaped forms, `_escaped_forms`)
        out: list[str] = []
        i = 0
        while True:
            j = text.find("\\u", i)
            if j == -1:
                out.append(text[i:])
                break
            code = text[j + 2 : j + 6]
            out.append(text[i:j])
            if len(code) == 4 and all(c in "0123456789abcdefABCDEF" for c in code):
                point = int(code, 16)
                if 0xD800 <= point <= 0xDFFF:  # half of a pair (or alone): left as written
                    out.append(text[j : j + 6])
                else:
                    out.append(chr(point))
                i = j + 6
            else:
                out.append("\\u")
                i = j + 2
        text = "".join(out)
    return text.replace("\ue000", "\\")


def _escaped_forms(secret: str) -> list[str]:
    from wikimem.capture import fastjson

    forms = [
        secret,
        fastjson.dumps(secret, ascii=False)[1:-1],
        fastjson.dumps(secret)[1:-1],
    ]
    forms.append(forms[1].replace("/", "\\/"))
    forms.append(forms[1].replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))
    return sorted(set(forms), key=len, reverse=True)


def _redact_escaped(text: str, found: list[str]) -> str:
    """Secrets hidden by JSON or YAML escaping (a tool's JSON output, a quoted title): found in
    the unescaped reading of the text, replaced in the text as it is. Each further level of
    escaping (JSON in a JSON string) is read through in turn."""
    view = text
    for level in range(1, _ESCAPE_LEVELS + 1):
        unescaped = _unescaped(view)
        if unescaped == view:
            return text
        kinds: list[str] = []
        secrets: list[str] = []
        view = _apply(unescaped, kinds, secrets)
        for kind, secret in zip(kinds, secrets, strict=True):
            mark = f"[REDACTED:{kind}]"
            forms = {secret}
            for _ in range(level):
                forms = {e for f in forms for e in _escaped_forms(f)}
            hit = False
            for form in sorted(forms, key=len, reverse=True):
                if form and form in text:
                    text = text.replace(form, mark)
                    hit = True
            if not hit:  # an escape we do not reproduce: hide every long run of the secret
                for run in _runs(secret):
                    text = text.replace(run, mark)
            found.append(kind)
    return text


def _runs(secret: str) -> list[str]:
    runs: list[str] = []
    current: list[str] = []
    for ch in secret + "\0":
        if ch.isalnum() or ch in "+/=_-.":
            current.append(ch)
            continue
        if len(current) >= 6:
            runs.append("".join(current))
        current = []
    return runs


def redact(text: str) -> tuple[str, list[str]]:
    """(text with secrets replaced, kinds found in order of the rules)."""
    found: list[str] = []
    if len(text) < 8:
        return text, found
    secrets: list[str] = []
    text = _apply(text, found, secrets)
    if "\\" in text:
        text = _redact_escaped(text, found)
    return text, found


# a note's text -> (its redaction, kinds), or None when it has no secret; see `redact_note`
_NOTES_READ: dict[str, tuple[str, tuple[str, ...]] | None] = {}
_NOTES_READ_CHARS = [0]
_NOTES_READ_MAX_CHARS = 32_000_000


def redact_note(text: str) -> tuple[str, list[str]]:
    """`redact`, remembered for the process: one dream reads each note it writes three times
    (the gate, the search index, index.md), and redaction was a tenth of the dream's time. The
    text itself is the key (a dict compares it whole, so two texts never share an answer) and
    the memory is capped by characters held; no hashing module, whose import alone would cost
    a hook reading a changed note several milliseconds."""
    if text in _NOTES_READ:
        seen = _NOTES_READ[text]
        return (text, []) if seen is None else (seen[0], list(seen[1]))
    redacted, kinds = redact(text)
    if len(text) > _NOTES_READ_MAX_CHARS // 8:
        return redacted, kinds
    if _NOTES_READ_CHARS[0] + len(text) > _NOTES_READ_MAX_CHARS:
        _NOTES_READ.clear()
        _NOTES_READ_CHARS[0] = 0
    _NOTES_READ[text] = (redacted, tuple(kinds)) if kinds else None
    _NOTES_READ_CHARS[0] += len(text)
    return redacted, kinds


def redact_keys(text: str) -> tuple[str, list[str]]:
    """Only private key blocks: one literal search, cheap on text of any size."""
    found: list[str] = []
    return _apply(text, found, [], only_keys=True), found


def clean(text: str) -> str:
    return redact(text)[0]


def scrub(text: object, limit: int = 300) -> str:
    """Any value as text safe to echo into a commit message, a report or a log: secrets
    redacted, control characters and line breaks shown escaped (a model's rejected path can
    never forge a trailer line), at most `limit` characters."""
    raw = text if isinstance(text, str) else repr(text)
    if len(raw) > 4 * limit:
        raw = raw[: 4 * limit]
    out = _mask_token_shaped(redact(raw)[0])
    out = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in out)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def _mask_token_shaped(text: str) -> str:
    """Runs that look like a key (see `token_shaped`) replaced by `[…]`: a bare hex or base32
    secret has no prefix the rules could know it by."""
    out: list[str] = []
    start = 0
    run_start = -1
    for i, ch in enumerate(text + " "):
        if ch.isascii() and ch.isalnum():
            if run_start < 0:
                run_start = i
            continue
        if run_start >= 0 and token_shaped(text[run_start:i]):
            out.append(text[start:run_start])
            out.append("[…]")
            start = i
        run_start = -1
    out.append(text[start:])
    return "".join(out)


TOKEN_SHAPED = 24


def token_shaped(name: str) -> bool:
    """Whether a name holds a run of 24+ letters and digits, both kinds, with no separator: a
    key or a signature (a hex digest, a base32 PAT), never a word a person would name a note."""
    run = letters = digits = 0
    for ch in name + "-":
        if "a" <= ch <= "z" or "A" <= ch <= "Z":
            run += 1
            letters += 1
        elif "0" <= ch <= "9":
            run += 1
            digits += 1
        else:
            if run >= TOKEN_SHAPED and letters and digits:
                return True
            run = letters = digits = 0
    return False


def _secret_key(key: str) -> bool:
    """Whether a dict key names a secret, by the same rule as `_NAME` (no regex needed)."""
    if not key or len(key) > 100 or not all(c in _NAME_CHARS for c in key):
        return False
    upper = key.upper().replace("-", "_")
    if upper.endswith("S"):
        upper_singular = upper[:-1]
        return any(upper.endswith(w) or upper_singular.endswith(w) for w in _NAME_ENDINGS)
    return any(upper.endswith(w) for w in _NAME_ENDINGS)


def _secret_value(value: str) -> bool:
    return (
        len(value) >= 4
        and not value.isdigit()
        and value.lower() not in ("true", "false", "null", "none", "yes", "no")
        and value[:1] not in ("$", "%", "<", "*")
        and "[REDACTED:" not in value
    )


def redact_value(value: object) -> tuple[object, list[str]]:
    """Redact every string inside a JSON-like value; a string under a secret-named key is
    replaced whole (`{"GITHUB_TOKEN": "..."}` carries no marker the text rules could see)."""
    found: list[str] = []

    def walk(v: object, depth: int) -> object:
        if isinstance(v, str):
            out, kinds = redact(v)
            found.extend(kinds)
            return out
        if depth > 64:
            return "[…wikimem: nested too deeply, dropped…]"
        if isinstance(v, dict):
            result: dict[object, object] = {}
            for k, x in v.items():
                if (
                    isinstance(k, str)
                    and isinstance(x, str)
                    and _secret_key(k)
                    and _secret_value(x)
                ):
                    found.append("env_secret")
                    result[k] = "[REDACTED:env_secret]"
                    continue
                result[walk(k, depth + 1) if isinstance(k, str) else k] = walk(x, depth + 1)
            return result
        if isinstance(v, list):
            return [walk(x, depth + 1) for x in v]
        return v

    return walk(value, 0), found
