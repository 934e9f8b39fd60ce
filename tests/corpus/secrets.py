"""A corpus of realistic secret formats, each in the context it is usually found in.

Every secret is generated at run time from a seeded random source (nothing secret-shaped sits in
the repository, so no scanner flags it and no real credential can be among them). `SAMPLES`
holds one `Sample` per format: `text` is how the secret appears (a config line, a header, a
command, a URL) and `secret` is what must never reach disk, a commit, the index or a model.
`CONTEXTS` places a sample's text in the positions a secret turns up in: alone, mid-line, deep
in a long line, inside a log, JSON-escaped in a tool's JSON output, in a YAML quoted scalar.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

_rng = random.Random(20261201)
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def rand(alphabet: str, n: int) -> str:
    # Mixed: a run of one class only (all letters) would not look like a key, and no generator
    # below should depend on luck to contain a digit.
    while True:
        out = "".join(_rng.choice(alphabet) for _ in range(n))
        if n < 8 or not (set(alphabet) & set(DIGITS)) or any(c.isdigit() for c in out):
            return out


def b64(n_bytes: int) -> str:
    return base64.b64encode(bytes(_rng.randrange(256) for _ in range(n_bytes))).decode()


def password() -> str:
    return rand(ALNUM, 10) + _rng.choice("!#%^*+") + rand(ALNUM, 5)


def pem(label: str, lines: int = 6) -> tuple[str, str]:
    body = "\n".join(rand(B64, 64) for _ in range(lines)) + "\n" + rand(B64, 20) + "=="
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body


@dataclass(frozen=True)
class Sample:
    name: str
    text: str
    secret: str
    # Further parts of the secret that must vanish too (the lines of a key block).
    parts: tuple[str, ...] = ()

    def needles(self) -> list[str]:
        """What must not be found anywhere: the secret, and each long part of it."""
        out = [self.secret, *self.parts]
        return [n for n in out if len(n) >= 8]


def _samples() -> list[Sample]:
    s: list[Sample] = []

    def add(name: str, text: str, secret: str, parts: tuple[str, ...] = ()) -> None:
        assert secret in text or all(p in text for p in parts), name
        s.append(Sample(name, text, secret, parts))

    def token(name: str, template: str, secret: str) -> None:
        add(name, template.format(secret), secret)

    # Model providers
    token(
        "anthropic api key",
        "export ANTHROPIC_API_KEY={}",
        "sk-ant-" + "api03-" + rand(URLSAFE, 93) + "AA",
    )
    token(
        "anthropic admin key",
        "admin key {} (org settings)",
        "sk-ant-" + "admin01-" + rand(URLSAFE, 80),
    )
    token(
        "openai project key", "client = OpenAI(api_key='{}')", "sk-" + "proj-" + rand(URLSAFE, 64)
    )
    token("openai service account key", "OPENAI_KEY: {}", "sk-" + "svcacct-" + rand(URLSAFE, 64))
    token("openai legacy key", "the key {} stopped working", "sk-" + rand(ALNUM, 48))
    token("openrouter key", "Authorization header uses {}", "sk-" + "or-v1-" + rand(HEX, 64))
    token("groq key", "GROQ={}", "gsk" + "_" + rand(ALNUM, 52))
    token("xai key", "xai key is {} for grok", "xai" + "-" + rand(ALNUM, 80))
    token("perplexity key", "pplx {} here", "pplx" + "-" + rand(ALNUM, 48))
    token("replicate token", "r8 token: {}", "r8" + "_" + rand(ALNUM, 37))
    token("hugging face token", "huggingface-cli login --token {}", "hf" + "_" + rand(ALNUM, 34))
    token(
        "langsmith key",
        "LANGCHAIN tracing {}",
        "lsv2" + "_pt_" + rand(HEX, 32) + "_" + rand(HEX, 10),
    )
    # Clouds
    token("aws access key id", "aws_access_key_id = {}", "AKIA" + rand(UPPER + DIGITS, 16))
    token("aws temporary access key id", "AccessKeyId: {}", "ASIA" + rand(UPPER + DIGITS, 16))
    token("aws secret access key", "aws_secret_access_key = {}", rand(B64, 40))
    token("aws session token", "aws_session_token = {}", "FwoGZXIvYXdzE" + rand(B64, 300))
    token("aws secret in env", "export AWS_SECRET_ACCESS_KEY={}", rand(B64, 40))
    token(
        "aws presigned url",
        "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={}",
        rand(HEX, 64),
    )
    token("google api key", "maps.googleapis.com/maps/api/js?key={}", "AIza" + rand(URLSAFE, 35))
    token("google oauth access token", "token: {}", "ya29." + rand(URLSAFE, 120))
    token("google oauth client secret", '"client_secret":"{}"', "GOCSPX-" + rand(URLSAFE, 28))
    key, body = pem("PRIVATE KEY", 8)
    add(
        "gcp service account json",
        json.dumps(
            {"type": "service_account", "private_key_id": rand(HEX, 40), "private_key": key + "\n"}
        ),
        body.split("\n")[0],
        tuple(body.split("\n")),
    )
    token(
        "azure storage connection string",
        "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey={};EndpointSuffix=core.windows.net",
        b64(64),
    )
    token(
        "azure service bus connection string",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={}",
        b64(32),
    )
    token(
        "azure sas url",
        "https://acmestore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-31T00:00:00Z&spr=https&sig={}",
        rand(ALNUM, 43) + "%3D",
    )
    token(
        "azure client secret",
        "AZURE_CLIENT_SECRET={}",
        rand(ALNUM, 8) + "~" + rand(URLSAFE + ".", 31),
    )
    token("azure devops pat", "AZURE_DEVOPS_PAT={}", rand(LOWER + "234567", 52))
    token(
        "azure functions key header",
        'curl -H "x-functions-key: {}" https://f.azurewebsites.net',
        rand(URLSAFE, 54) + "==",
    )
    token("azure apim subscription key", "Ocp-Apim-Subscription-Key: {}", rand(HEX, 32))
    token("digitalocean token", "doctl auth init -t {}", "dop" + "_v1_" + rand(HEX, 64))
    token(
        "heroku api key",
        "HEROKU_API_KEY={}",
        f"{rand(HEX, 8)}-{rand(HEX, 4)}-{rand(HEX, 4)}-{rand(HEX, 4)}-{rand(HEX, 12)}",
    )
    token("cloudflare api token", "CLOUDFLARE_API_TOKEN={}", rand(URLSAFE, 40))
    token("fly.io token", "fly auth token: FlyV1 {}", "fm2" + "_" + rand(B64, 120))
    token(
        "terraform cloud token", 'token = "{}"', rand(ALNUM, 14) + ".atlasv1." + rand(URLSAFE, 67)
    )
    token("pulumi token", "PULUMI_ACCESS_TOKEN={}", "pul" + "-" + rand(HEX, 40))
    token("databricks token", "databricks configure --token {}", "dapi" + rand(HEX, 32))
    token("supabase token", "supabase login --token {}", "sbp" + "_" + rand(HEX, 40))
    token("planetscale token", "pscale token {}", "pscale" + "_tkn_" + rand(URLSAFE, 43))
    token(
        "tailscale auth key",
        "tailscale up --authkey={}",
        "tskey" + "-auth-" + rand(ALNUM, 12) + "-" + rand(ALNUM, 30),
    )
    token("doppler token", "DOPPLER_TOKEN set to {}", "dp.pt." + rand(ALNUM, 43))
    token("age secret key", "# {}", "AGE-SECRET-KEY-1" + rand(UPPER + DIGITS, 58))
    # Code hosts and registries
    token(
        "github classic token",
        "git remote set-url origin https://{}@github.com/acme/api",
        "ghp" + "_" + rand(ALNUM, 36),
    )
    token("github oauth token", "gh auth token -> {}", "gho" + "_" + rand(ALNUM, 36))
    token("github app token", "x-access-token {}", "ghs" + "_" + rand(ALNUM, 36))
    token(
        "github fine-grained token",
        "GH_TOKEN={}",
        "github" + "_pat_" + rand(ALNUM, 22) + "_" + rand(ALNUM, 59),
    )
    token("gitlab personal token", "PRIVATE-TOKEN: {}", "glpat" + "-" + rand(URLSAFE, 20))
    token(
        "gitlab runner token", "gitlab-runner register --token {}", "glrt" + "-" + rand(URLSAFE, 20)
    )
    token("gitlab trigger token", "curl -F token={} -F ref=main", "glptt" + "-" + rand(HEX, 40))
    token("npm token", "//registry.npmjs.org/:_authToken={}", "npm" + "_" + rand(ALNUM, 36))
    token(
        "npmrc auth token (uuid)",
        "//npm.pkg.github.com/:_authToken={}",
        f"{rand(HEX, 8)}-{rand(HEX, 4)}-{rand(HEX, 4)}-{rand(HEX, 4)}-{rand(HEX, 12)}",
    )
    token("npmrc basic auth", "//registry.acme.dev/:_auth={}", b64(24))
    token("pypi token", "password = {}", "pypi" + "-AgEIcHlwaS5vcmc" + rand(URLSAFE, 70))
    token("pypirc password", "[pypi]\nusername = alice\npassword = {}", password())
    token(
        "docker config auths",
        '{{"auths":{{"ghcr.io":{{"auth":"{}"}}}}}}',
        base64.b64encode(f"alice:{password()}".encode()).decode(),
    )
    token("docker login -p", "docker login -u alice -p {} registry.acme.dev", password())
    token(
        "docker login --password", "docker login --username alice --password={} ghcr.io", password()
    )
    token("sentry auth token", "SENTRY auth {}", "sntrys" + "_" + rand(B64, 60))
    token("postman api key", "x {}", "PMAK" + "-" + rand(HEX, 24) + "-" + rand(HEX, 34))
    # Chat, mail, payments, monitoring
    token(
        "slack bot token",
        "SLACK {}",
        "xoxb" + "-" + rand(DIGITS, 12) + "-" + rand(DIGITS, 13) + "-" + rand(ALNUM, 24),
    )
    token(
        "slack user token",
        "token={}",
        "xoxp" + "-" + rand(DIGITS, 12) + "-" + rand(DIGITS, 13) + "-" + rand(HEX, 32),
    )
    token(
        "slack app-level token",
        "socket mode with {}",
        "xapp" + "-1-A0" + rand(UPPER + DIGITS, 9) + "-" + rand(DIGITS, 13) + "-" + rand(HEX, 64),
    )
    token(
        "slack webhook",
        "curl -X POST {} -d @msg.json",
        "https://hooks.slack.com/services/"
        + "T"
        + rand(UPPER + DIGITS, 8)
        + "/B"
        + rand(UPPER + DIGITS, 8)
        + "/"
        + rand(ALNUM, 24),
    )
    token(
        "slack workflow webhook",
        "POST {}",
        "https://hooks.slack.com/triggers/"
        + "T"
        + rand(UPPER + DIGITS, 8)
        + "/"
        + rand(DIGITS, 13)
        + "/"
        + rand(HEX, 32),
    )
    token(
        "discord bot token",
        "client.run('{}')  # discord bot",
        "M" + rand(ALNUM, 25) + "." + rand(URLSAFE, 6) + "." + rand(URLSAFE, 38),
    )
    token(
        "discord webhook",
        "webhook {}",
        "https://discord.com/api/webhooks/" + rand(DIGITS, 18) + "/" + rand(URLSAFE, 68),
    )
    token(
        "telegram bot token",
        "bot = telebot.TeleBot({})",
        rand(DIGITS, 10) + ":AA" + rand(URLSAFE, 33),
    )
    token("stripe secret key", "stripe.api_key = {}", "sk" + "_live_" + rand(ALNUM, 24))
    token("stripe restricted key", "rk {}", "rk" + "_live_" + rand(ALNUM, 24))
    token("stripe test key", "STRIPE={}", "sk" + "_test_" + rand(ALNUM, 24))
    token(
        "stripe webhook secret",
        "stripe listen -> Your webhook signing secret is {}",
        "whsec" + "_" + rand(ALNUM, 32),
    )
    token("twilio api key", "twilio api key {}", "SK" + rand(HEX, 32))
    token("twilio auth token", "TWILIO_AUTH_TOKEN={}", rand(HEX, 32))
    token("sendgrid key", "SENDGRID {}", "SG." + rand(URLSAFE, 22) + "." + rand(URLSAFE, 43))
    token("mailgun key", "api:{}", "key" + "-" + rand(HEX, 32))
    token(
        "mailgun env key",
        "MAILGUN_API_KEY={}",
        rand(HEX, 32) + "-" + rand(HEX, 8) + "-" + rand(HEX, 8),
    )
    token("mailchimp key", "mailchimp {}", rand(HEX, 32) + "-us21")
    token("datadog api key", "DD_API_KEY={}", rand(HEX, 32))
    token("datadog app key", "DD_APP_KEY={}", rand(HEX, 40))
    token("datadog header", 'curl -H "DD-API-KEY: {}" https://api.datadoghq.com', rand(HEX, 32))
    token("new relic key", "NEW_RELIC {}", "NRAK" + "-" + rand(UPPER + DIGITS, 27))
    token(
        "grafana service account token",
        "grafana {}",
        "glsa" + "_" + rand(ALNUM, 32) + "_" + rand(HEX, 8),
    )
    token("shopify token", "X-Shopify-Access-Token: {}", "shpat" + "_" + rand(HEX, 32))
    token("atlassian token", "jira token {}", "ATATT" + "3xFfGF0" + rand(URLSAFE, 180))
    token("linear key", "linear {}", "lin" + "_api_" + rand(ALNUM, 40))
    token("notion token", "notion {}", "ntn" + "_" + rand(ALNUM, 46))
    token(
        "mapbox secret token", "mapbox {}", "sk.eyJ" + rand(URLSAFE, 60) + "." + rand(URLSAFE, 22)
    )
    token("square token", "square {}", "EAAA" + rand(URLSAFE, 60))
    token("firebase server key", "FCM {}", rand(URLSAFE, 11) + ":APA91b" + rand(URLSAFE, 134))
    # Secret stores and auth
    token("vault token", "VAULT_TOKEN={}", "hvs." + rand(URLSAFE, 90))
    token(
        "vault header", 'curl -H "X-Vault-Token: {}" $VAULT_ADDR/v1/secret', "s." + rand(ALNUM, 24)
    )
    token("vault batch token", "batch {}", "hvb." + rand(URLSAFE, 120))
    token(
        "jwt",
        "Cookie: session={}",
        "eyJ" + rand(URLSAFE, 30) + ".eyJ" + rand(URLSAFE, 60) + "." + rand(URLSAFE, 43),
    )
    token("bearer header", "Authorization: Bearer {}", rand(URLSAFE, 40))
    token(
        "basic auth header",
        "Authorization: Basic {}",
        base64.b64encode(f"bob:{password()}".encode()).decode(),
    )
    token("github token header", "Authorization: token {}", rand(HEX, 40))
    token("okta ssws header", "Authorization: SSWS {}", "00" + rand(URLSAFE, 40))
    token("x-api-key header", 'curl -H "X-API-Key: {}" https://api.acme.dev/v1', rand(ALNUM, 32))
    token("x-auth-token header", "X-Auth-Token: {}", rand(HEX, 48))
    # Passwords in URLs, connection strings, commands
    token("postgres url", "DATABASE={}", "postgres://app:" + password() + "@db.internal:5432/app")
    add_pw = password()
    add("postgres url password", f"psql postgresql://app:{add_pw}@db.internal/app", add_pw)
    redis_pw = password()
    add("redis url without user", f"REDIS=redis://:{redis_pw}@cache.internal:6379/0", redis_pw)
    mongo_pw = password()
    add(
        "mongodb srv url",
        f"mongosh 'mongodb+srv://admin:{mongo_pw}@cluster0.abcd.mongodb.net/app'",
        mongo_pw,
    )
    amqp_pw = password()
    add("amqp url", f"broker_url = amqp://worker:{amqp_pw}@rabbit:5672//", amqp_pw)
    jdbc_pw = password()
    add(
        "jdbc password param",
        f"jdbc:mysql://db:3306/app?user=app&password={jdbc_pw}&useSSL=true",
        jdbc_pw,
    )
    sql_pw = password()
    add(
        "sql server connection string",
        f"Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID=sa;Password={sql_pw};Encrypt=True;",
        sql_pw,
    )
    token("curl user", "curl -u admin:{} https://jenkins.acme.dev/api", password())
    token("--password= flag", "ansible-vault decrypt --password={} vars.yml", password())
    token("--password flag", "mytool login --password {} --user bob", password())
    token("--token flag", "terraform login --token {}", rand(URLSAFE, 32))
    token("sshpass", "sshpass -p '{}' ssh deploy@10.0.0.5", password())
    token("mysql -p", "mysql -u root -p{} app", password())
    token("pgpassword", "PGPASSWORD={} psql -h db app", password())
    token("keytool storepass", "keytool -list -keystore app.jks -storepass {}", password())
    token("openssl passin", "openssl rsa -in key.pem -passin pass:{}", password())
    token("sql identified by", "CREATE USER 'app'@'%' IDENTIFIED BY '{}';", password())
    token("sql with password", "ALTER ROLE app WITH PASSWORD '{}';", password())
    token("netrc", "machine api.acme.dev login bob password {}", password())
    token(
        "kubectl from-literal",
        "kubectl create secret generic db --from-literal=password={}",
        password(),
    )
    # Application frameworks and config files
    token(
        "django secret key",
        "SECRET_KEY = '{}'",
        "django-insecure-" + rand(LOWER + DIGITS + "!@#%^&*(-_=+)", 50),
    )
    token("laravel app key", "APP_KEY=base64:{}", b64(32))
    token("rails master key", "RAILS_MASTER_KEY={}", rand(HEX, 32))
    token("rails secret_key_base", "production:\n  secret_key_base: {}", rand(HEX, 128))
    token("dotenv db password", "DB_PASSWORD={}", password())
    token("dotenv quoted", 'export API_TOKEN="{}"', rand(ALNUM, 32))
    token("yaml password", "database:\n  host: db\n  password: {}\n", password())
    token("compose env", "    environment:\n      - POSTGRES_PASSWORD={}", password())
    token("json client secret", '{{"client_id": "web", "client_secret": "{}"}}', rand(URLSAFE, 40))
    token("toml password", '[db]\npassword = "{}"', password())
    token(
        "python kwargs password",
        'psycopg.connect(host="db", user="app", password="{}")',
        password(),
    )
    token("terraform variable", 'db_password = "{}"', password())
    token("kubeconfig token", "users:\n- name: admin\n  user:\n    token: {}", rand(URLSAFE, 64))
    key_data = b64(300)
    token("kubeconfig client key data", "    client-key-data: {}", key_data)
    k8s_pw, k8s_key = b64(18), b64(40)
    add(
        "kubernetes secret data",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n"
        f"  username: YWRtaW4=\n  password: {k8s_pw}\n  api-key: {k8s_key}\n",
        k8s_pw,
        (k8s_key,),
    )
    string_data = password()
    add(
        "kubernetes secret stringData",
        f"kind: Secret\nstringData:\n  DB_URL: postgres://db/app\n  db-pass: {string_data}\n",
        string_data,
    )
    # Keys
    for label in (
        "RSA PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "EC PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
    ):
        block, body = pem(label)
        add(f"pem {label.lower()}", block, body.split("\n")[0], tuple(body.split("\n")))
    pgp_body = "\n".join(rand(B64, 64) for _ in range(5))
    add(
        "pgp private key block",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
        + pgp_body
        + "\n="
        + rand(B64, 4)
        + "\n-----END PGP PRIVATE KEY BLOCK-----",
        pgp_body.split("\n")[0],
        tuple(pgp_body.split("\n")),
    )
    return s


SAMPLES: list[Sample] = _samples()


def _json_output(text: str) -> str:
    """The text as a tool's JSON output carries it: escaped, inside a larger document."""
    return json.dumps({"content": [{"type": "text", "text": text}], "isError": False})


def _yaml_quoted(text: str) -> str:
    return "---\ntitle: " + json.dumps(text) + "\nkind: general\n---\nbody\n"


CONTEXTS: dict[str, Callable[[str], str]] = {
    "alone": lambda t: t,
    "mid-line": lambda t: "note from the deploy run: " + t.replace("\n", "\n  "),
    "deep in a long line": lambda t: ("x " * 3000) + t,
    "inside a log": lambda t: "step 1 ok\nstep 2 ok\n" + t + "\nstep 3 ok\nDone in 3.2s",
    "JSON-escaped": _json_output,
    "YAML quoted scalar": _yaml_quoted,
}


def all_needles() -> list[str]:
    return [n for sample in SAMPLES for n in sample.needles()]
