"""A held-out secrets corpus: formats and prose the detector was NOT written beside.

tests/corpus/secrets.py was written next to wikimem/capture/redact.py, so its figure says little
about a format nobody thought of. This corpus was written before the detector was extended for it
and measured once (tests/corpus/HELDOUT_BASELINE.md): treat it as a test set, not a to-do list.
Fix an entry only when the entry itself is wrong (a shape that does not match the service's
documented format), never to make the detector's figure better, and say so in the baseline file.

- `HELDOUT_FORMATS`: credential formats of tools and services that tests/corpus/secrets.py does
  not hold, checked by name and by prefix (tests/test_heldout_corpus.py keeps both checks). Each
  is a `Format`: where it appears (`text`), what must vanish (`secret`, and `parts` for a
  multi-line key), and `source`, the documented shape it imitates (vendor docs, or the public rule
  sets of gitleaks and TruffleHog where the vendor documents no pattern). Values are generated at
  run time from a seeded random source with the real prefix, length, alphabet and structure:
  nothing secret-shaped sits in the repository, and no real credential can be among them.
- `PROSE_SECRETS`: a person typing a password, passphrase, PIN or secret in a sentence, with the
  substring that must disappear.
- `ORDINARY_PROSE`: sentences about passwords, keys, tokens and secrets that hold none; nothing in
  them may be redacted.

The same contexts as the main corpus apply (`tests.corpus.secrets.CONTEXTS`); `bench/
secrets_heldout.py` prints the figures.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse
from dataclasses import dataclass

_rng = random.Random(20270117)
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + DIGITS
LOWER_ALNUM = LOWER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
HEX_UPPER = "0123456789ABCDEF"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BASE32 = UPPER + "234567"


def rand(alphabet: str, n: int) -> str:
    # Like the main corpus: a long run always holds a digit when the alphabet has digits, so no
    # value depends on luck to look like a key.
    while True:
        out = "".join(_rng.choice(alphabet) for _ in range(n))
        if n < 8 or not (set(alphabet) & set(DIGITS)) or any(c.isdigit() for c in out):
            return out


def raw(n: int) -> bytes:
    return bytes(_rng.randrange(256) for _ in range(n))


def b64(n_bytes: int) -> str:
    return base64.b64encode(raw(n_bytes)).decode()


def b64url(n_bytes: int) -> str:
    return base64.urlsafe_b64encode(raw(n_bytes)).decode().rstrip("=")


def uuid4() -> str:
    h = rand(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def wrap(text: str, width: int = 64) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


def password() -> str:
    return rand(ALNUM, 9) + _rng.choice("!#%^*+~") + rand(ALNUM, 5)


@dataclass(frozen=True)
class Format:
    name: str
    text: str
    secret: str
    source: str
    category: str
    # Further parts of the secret that must vanish too (the lines of a key block).
    parts: tuple[str, ...] = ()

    def needles(self) -> list[str]:
        """What must not be found anywhere (the same rule as the main corpus: parts of 8+)."""
        return [n for n in (self.secret, *self.parts) if len(n) >= 8]


def _formats() -> list[Format]:
    out: list[Format] = []
    section = [""]

    def add(name: str, text: str, secret: str, source: str, parts: tuple[str, ...] = ()) -> None:
        assert secret in text and all(p in text for p in parts), name
        out.append(Format(name, text, secret, source, section[0], parts))

    # --- Chat and bots -------------------------------------------------------------------------
    section[0] = "chat and bots"
    s = "xoxe" + ".xoxp-1-" + rand(ALNUM, 163)
    add(
        "slack configuration access token",
        f"app manifest token {s}",
        s,
        "Slack app configuration token: xoxe.xoxp-1- + ~163 alphanumerics (gitleaks "
        "slack-config-access-token)",
    )
    s = "xoxe" + "-1-" + rand(ALNUM, 146)
    add(
        "slack configuration refresh token",
        f"rotate it with tooling.tokens.rotate and refresh_token {s}",
        s,
        "Slack configuration refresh token: xoxe-1- + 146 alphanumerics (gitleaks "
        "slack-config-refresh-token)",
    )
    s = (
        "xoxc"
        + "-"
        + rand(DIGITS, 12)
        + "-"
        + rand(DIGITS, 13)
        + "-"
        + rand(DIGITS, 13)
        + "-"
        + rand(HEX, 64)
    )
    add(
        "slack client session token (xoxc)",
        f"scraped from the web client: token={s}",
        s,
        "Slack browser-session token: xoxc- + three numeric ids + 64 hex",
    )
    s = "xoxd" + "-" + urllib.parse.quote(b64(96), safe="")
    add(
        "slack session cookie (xoxd)",
        f"Cookie: d={s}; d-s=1767225600",
        s,
        "Slack `d` session cookie: xoxd- + URL-encoded base64 (~130-200 chars)",
    )
    s = rand(LOWER_ALNUM, 26)
    add(
        "mattermost personal access token",
        f"mmctl auth login https://chat.acme.dev --name prod --username ops --access-token {s}",
        s,
        "Mattermost personal access token: 26 lowercase alphanumerics (gitleaks "
        "mattermost-access-token)",
    )
    s = rand(LOWER_ALNUM, 26)
    add(
        "mattermost incoming webhook",
        "curl -i -X POST -H 'Content-Type: application/json' -d '{\"text\": \"deploy done\"}' "
        f"https://chat.acme.dev/hooks/{s}",
        s,
        "Mattermost incoming webhook URL: https://<host>/hooks/<26 lowercase alphanumerics>",
    )
    s = rand(LOWER_ALNUM, 32)
    add(
        "microsoft teams incoming webhook",
        f"TEAMS hook: https://acme.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}"
        f"/IncomingWebhook/{s}/{uuid4()}",
        s,
        "Teams webhook: https://<tenant>.webhook.office.com/webhookb2/<uuid>@<uuid>/"
        "IncomingWebhook/<32 alnum>/<uuid> (gitleaks microsoft-teams-webhook)",
    )
    s = rand(URLSAFE, 43) + "%3D"
    add(
        "google chat webhook",
        "POST https://chat.googleapis.com/v1/spaces/AAAA"
        + rand(URLSAFE, 7)
        + "/messages?key=AIza"
        + rand(URLSAFE, 35)
        + f"&token={s}",
        s,
        "Google Chat incoming webhook: spaces/<id>/messages?key=<AIza key>&token=<43 url-safe "
        "base64 + %3D>",
    )
    s = rand(DIGITS, 7) + "/" + rand(LOWER_ALNUM, 7)
    add(
        "zapier catch hook",
        f"the form posts to https://hooks.zapier.com/hooks/catch/{s}/",
        s,
        "Zapier catch hook: https://hooks.zapier.com/hooks/catch/<account digits>/<hook id>/ "
        "(TruffleHog zapierwebhook)",
    )
    s = rand(ALNUM, 32)
    add(
        "zulip api key (zuliprc)",
        f"[api]\nemail=deploy-bot@acme.zulipchat.com\nkey={s}\nsite=https://acme.zulipchat.com",
        s,
        "Zulip bot zuliprc: [api] email=, key=<32 alphanumerics>, site=",
    )
    s = rand(HEX, 32)
    add(
        "telegram api hash",
        f"client = TelegramClient('anon', {_rng.randint(1_000_000, 39_999_999)}, '{s}')",
        s,
        "Telegram MTProto app credentials: api_id (digits), api_hash (32 hex), from my.telegram.org",
    )
    s = rand(LOWER_ALNUM, 30)
    add(
        "twitch irc oauth token",
        f"PASS oauth:{s}\nNICK acme_bot\nJOIN #acme",
        s,
        "Twitch chat (IRC) login: PASS oauth:<30 lowercase alphanumerics> (gitleaks twitch-api-token)",
    )
    local = base64.b64encode(b"deploybot").decode().rstrip("=")
    s = "syt" + "_" + local + "_" + rand(ALNUM, 20) + "_" + rand(ALNUM, 6)
    add(
        "matrix synapse access token",
        f"homeserver login ok, token {s}",
        s,
        "Synapse access token: syt_<base64 localpart>_<20 alphanumerics>_<6-char checksum>",
    )

    # --- Signing keys and key material ---------------------------------------------------------
    section[0] = "signing keys"
    pub = "AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(B64, 43)
    private = base64.b64encode(b"\x00\x00\x00\x20" + raw(32)).decode()
    add(
        "putty private key (ppk v3)",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@build01\n"
        f"Public-Lines: 2\n{pub[:64]}\n{pub[64:]}\nPrivate-Lines: 1\n{private}\n"
        f"Private-MAC: {rand(HEX, 64)}",
        private,
        "PuTTY .ppk v3: header lines, Public-Lines, base64 public blob, Private-Lines, base64 "
        "private blob, Private-MAC (PuTTY manual, appendix C)",
    )
    blob = raw(900)
    body = wrap(
        base64.b64encode(b"\x3f\x6f\xf9\xeb" + (len(blob) + 8).to_bytes(4, "big") + blob).decode(),
        70,
    )
    add(
        "ssh.com secsh private key",
        '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20260114"\n'
        + "\n".join(body)
        + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        body[0],
        "SSH.com/Tectia key file: ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- (four dashes), "
        "base64 body in 70-char lines starting P2/56wAAA (magic 3f6ff9eb, then a length)",
        tuple(body),
    )
    body = wrap(rand(HEX, 512), 32)
    add(
        "openvpn static key",
        "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
        + "\n".join(body)
        + "\n-----END OpenVPN Static key V1-----",
        body[0],
        "OpenVPN tls-auth/secret file: -----BEGIN OpenVPN Static key V1----- + 16 lines of 32 hex",
        tuple(body),
    )
    s = b64(32)
    add(
        "wireguard private key",
        f"[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = {s}\nListenPort = 51820",
        s,
        "WireGuard wg0.conf: PrivateKey = <44-char base64 of 32 bytes, ending =>",
    )
    s = b64(32)
    add(
        "wireguard preshared key",
        f"[Peer]\nPublicKey = {b64(32)}\nPresharedKey = {s}\nEndpoint = vpn.acme.dev:51820",
        s,
        "WireGuard [Peer] PresharedKey = <44-char base64 of 32 bytes>",
    )
    s = base64.b64encode(b"EdScB2" + raw(152)).decode()
    add(
        "minisign secret key",
        f"untrusted comment: minisign encrypted secret key\n{s}",
        s,
        "minisign.key: 'untrusted comment:' line + base64 of Ed|Sc|B2|… (212 chars, starts RWRTY0Iy)",
    )
    s = base64.b64encode(b"EdBK" + (42).to_bytes(4, "big") + raw(96)).decode()
    add(
        "signify secret key",
        f"untrusted comment: signify secret key\n{s}",
        s,
        "OpenBSD signify .sec: comment line + base64 of Ed|BK|rounds|salt|checksum|keynum|seckey "
        "(140 chars, starts RWRCSw)",
    )
    blob = json.dumps(
        {
            "kdf": {
                "name": "scrypt",
                "params": {"N": 65536, "r": 8, "p": 1},
                "salt": b64(32),
            },
            "cipher": {"name": "nacl/secretbox", "nonce": b64(24)},
            "ciphertext": b64(160),
        },
        separators=(",", ":"),
    )
    body = wrap(base64.b64encode(blob.encode()).decode())
    add(
        "cosign private key",
        "-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n"
        + "\n".join(body)
        + "\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----",
        body[0],
        "cosign.key: -----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY----- + base64 of the scrypt/"
        "secretbox JSON envelope",
        tuple(body),
    )
    jwk = {
        "kty": "RSA",
        "kid": "signing-2026-01",
        "use": "sig",
        "alg": "RS256",
        "n": b64url(256),
        "e": "AQAB",
        "d": b64url(256),
        "p": b64url(128),
        "q": b64url(128),
        "dp": b64url(128),
        "dq": b64url(128),
        "qi": b64url(128),
    }
    add(
        "jwk rsa private key",
        json.dumps(jwk),
        jwk["d"],
        "RFC 7517/7518 RSA JWK with private members d, p, q, dp, dq, qi (base64url)",
        (jwk["p"], jwk["q"], jwk["dp"], jwk["dq"], jwk["qi"]),
    )
    jwk = {"kty": "EC", "crv": "P-256", "x": b64url(32), "y": b64url(32), "d": b64url(32)}
    add(
        "jwk ec private key",
        json.dumps(jwk, indent=2),
        jwk["d"],
        "RFC 7518 EC JWK: kty EC, crv P-256, x, y, private d (43 base64url chars)",
    )
    jwk = {"crv": "Ed25519", "d": b64url(32), "kty": "OKP", "x": b64url(32)}
    add(
        "jwk ed25519 private key",
        json.dumps(jwk),
        jwk["d"],
        "RFC 8037 OKP JWK: kty OKP, crv Ed25519, x, private d (43 base64url chars)",
    )
    jwk = {"kty": "oct", "kid": "hmac-2026", "alg": "HS256", "k": b64url(32)}
    add(
        "jwk symmetric key",
        json.dumps(jwk),
        jwk["k"],
        "RFC 7518 symmetric JWK: kty oct, k = base64url key",
    )
    s = "nsec1" + rand(BECH32, 58)
    add(
        "nostr private key",
        f"import into the signer: {s}",
        s,
        "NIP-19 private key: nsec1 + 58 bech32 characters",
    )
    s = _rng.choice("KL") + rand(BASE58, 51)
    add(
        "bitcoin wif private key",
        f'bitcoin-cli importprivkey {s} "cold" false',
        s,
        "Bitcoin WIF (compressed): 52 base58 characters starting K or L",
    )
    s = rand(HEX, 64)
    add(
        "ethereum private key (foundry)",
        "cast send 0x" + rand(HEX, 40) + " 'transfer(address,uint256)' 0x" + rand(HEX, 40) + " 1000"
        f" --rpc-url $RPC --private-key 0x{s}",
        s,
        "secp256k1 private key: 0x + 64 hex, passed to Foundry's --private-key",
    )
    words = (
        "canyon exhibit orbit velvet pledge frost unusual brisk mandate tuition shadow aware "
        "lizard harvest oxygen pioneer random silver timber walnut zebra cable drastic eternal"
    ).split()
    s = " ".join(_rng.sample(words, 12))
    add(
        "bip39 mnemonic",
        f"seed phrase for the test wallet: {s}",
        s,
        "BIP-39 mnemonic: 12 words of the English wordlist",
    )
    s = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" + b64(1150)
    add(
        "pkcs8 key without pem armour",
        json.dumps({"issuer": "acme", "signingKey": s}),
        s,
        "PKCS#8 RSA private key as bare base64 DER (MIIEvQIBADANBgkqhkiG9w0BAQEFAASC…), as config "
        "fields carry it without BEGIN/END lines",
    )
    s = "A3-" + "-".join(rand(UPPER_ALNUM, n) for n in (6, 11, 5, 5, 5))
    add(
        "1password secret key",
        f"Emergency Kit: Secret Key {s}",
        s,
        "1Password account Secret Key: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX (gitleaks "
        "1password-secret-key)",
    )
    blob = json.dumps(
        {
            "signInAddress": "acme.1password.com",
            "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000},
            "email": "ci@acme.dev",
            "srpX": rand(HEX, 64),
            "muk": {"alg": "A256GCM", "ext": True, "k": b64url(32), "kty": "oct"},
            "secretKey": "A3-" + rand(UPPER_ALNUM, 6) + "-" + rand(UPPER_ALNUM, 11),
            "deviceUuid": rand(LOWER_ALNUM, 26),
        },
        separators=(",", ":"),
    )
    s = "ops" + "_" + base64.b64encode(blob.encode()).decode().rstrip("=")
    add(
        "1password service account token",
        f"op whoami with the service account: {s}",
        s,
        "1Password service account token: ops_eyJ + base64 JSON, 250+ chars (gitleaks "
        "1password-service-account-token)",
    )

    # --- Data platforms --------------------------------------------------------------------------
    section[0] = "data platforms"
    pw = password()
    add(
        "snowflake sqlalchemy url",
        f"engine = create_engine('snowflake://etl_user:{pw}@xy12345.eu-central-1/ANALYTICS/"
        "PUBLIC?warehouse=ETL_WH&role=LOADER')",
        pw,
        "snowflake-sqlalchemy URL: snowflake://<user>:<password>@<account>/<db>/<schema>?warehouse=",
    )
    key, secret = rand(UPPER_ALNUM, 16), rand(B64, 64)
    add(
        "confluent cloud kafka jaas config",
        "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain."
        f"PlainLoginModule required username='{key}' password='{secret}';",
        secret,
        "Confluent Cloud API key (16 uppercase alphanumerics) and secret (64 chars) in a Kafka "
        "client.properties",
    )
    key, secret = rand(UPPER_ALNUM, 16), rand(B64, 64)
    add(
        "confluent cli api-key store",
        f"confluent api-key store {key} {secret} --resource lkc-{rand(LOWER_ALNUM, 5)}",
        secret,
        "confluent api-key store <key> <secret>: 16-char key, 64-char secret",
    )
    s = "4b1d" + rand(ALNUM, 38)
    add(
        "clickhouse cloud api secret",
        f"key id {rand(UPPER_ALNUM, 20)} secret {s}",
        s,
        "ClickHouse Cloud API key secret: 4b1d + 38 alphanumerics (gitleaks "
        "clickhouse-cloud-api-secret-key)",
    )
    pw = rand(URLSAFE, 16)
    add(
        "clickhouse native url",
        f"clickhouse client --connection 'clickhouse://default:{pw}@"
        f"{rand(LOWER_ALNUM, 10)}.eu-west-1.aws.clickhouse.cloud:9440/default?secure=true'",
        pw,
        "ClickHouse connection string clickhouse://<user>:<password>@<host>:9440/<db>",
    )
    s = "sb" + "_secret_" + rand(URLSAFE, 31)
    add(
        "supabase secret key",
        f"server client uses {s}",
        s,
        "Supabase secret API key: sb_secret_… (Supabase docs, API keys)",
    )
    s = "pscale" + "_pw_" + rand(ALNUM + "_", 43)
    add(
        "planetscale database password",
        f"new password created: username {rand(LOWER_ALNUM, 20)} password {s}",
        s,
        "PlanetScale database password: pscale_pw_ + 43 (TruffleHog planetscaledb, gitleaks "
        "planetscale-password)",
    )
    s = "napi" + "_" + rand(LOWER_ALNUM, 60)
    add(
        "neon api key",
        f"neonctl projects list --api-key {s}",
        s,
        "Neon API key: napi_ + 60 lowercase alphanumerics (Neon console, API keys)",
    )
    pw = "npg" + "_" + rand(ALNUM, 12)
    add(
        "neon postgres connection string",
        f"postgresql://neondb_owner:{pw}@ep-cool-darkness-a1b2c3d4-pooler.us-east-2.aws.neon.tech"
        "/neondb?sslmode=require",
        pw,
        "Neon connection string with an npg_-prefixed role password",
    )
    s = uuid4()
    add(
        "mongodb atlas programmatic api key",
        f'[default]\n  org_id = "{rand(HEX, 24)}"\n  public_api_key = "{rand(LOWER, 8)}"\n'
        f'  private_api_key = "{s}"\n  service = "cloud"',
        s,
        "Atlas CLI config.toml: public_api_key (8 lowercase) and private_api_key (UUID)",
    )
    pw = password()
    add(
        "mongodb replica set uri",
        f"mongodb://admin:{pw}@mongo-0.db:27017,mongo-1.db:27017,mongo-2.db:27017/app"
        "?replicaSet=rs0&authSource=admin",
        pw,
        "MongoDB standard connection string with several hosts and a password",
    )
    s = base64.b64encode(f"{rand(URLSAFE, 20)}:{rand(URLSAFE, 22)}".encode()).decode()
    add(
        "elasticsearch api key header",
        f'curl -H "Authorization: ApiKey {s}" https://es.acme.dev:9200/_cat/indices',
        s,
        "Elasticsearch API key: Authorization: ApiKey <base64(id:api_key)>",
    )
    s = "pcsk" + "_" + rand(ALNUM, 5) + "_" + rand(ALNUM, 63)
    add(
        "pinecone api key",
        f"pc = Pinecone('{s}')",
        s,
        "Pinecone API key: pcsk_<5-6 alnum>_<63 alnum> (TruffleHog pinecone)",
    )
    s = "pat" + rand(ALNUM, 14) + "." + rand(HEX, 64)
    add(
        "airtable personal access token",
        f"airtable pat {s}",
        s,
        "Airtable personal access token: pat + 14 alnum + . + 64 hex (gitleaks)",
    )
    s = rand(HEX, 32)
    add(
        "algolia admin api key",
        f"const client = algoliasearch('{rand(UPPER_ALNUM, 10)}', '{s}');",
        s,
        "Algolia application id (10 uppercase alnum) and admin API key (32 hex)",
    )
    s = b64(64)
    add(
        "influxdb token",
        "influx config create --config-name prod --host-url https://influx.acme.dev "
        f"--org acme --token {s} --active",
        s,
        "InfluxDB 2 API token: 88-char base64 ending ==",
    )
    s = "AstraCS" + ":" + rand(ALNUM, 24) + ":" + rand(HEX, 64)
    add(
        "datastax astra db token",
        f"astra token {s}",
        s,
        "Astra DB application token: AstraCS:<24 alnum>:<64 hex>",
    )

    # --- Mail --------------------------------------------------------------------------------------
    section[0] = "mail"
    s = uuid4()
    add(
        "postmark server token",
        f'curl https://api.postmarkapp.com/email -H "X-Postmark-Server-Token: {s}" -d @mail.json',
        s,
        "Postmark server token (UUID) in the X-Postmark-Server-Token header",
    )
    s = "md" + "-" + rand(URLSAFE, 22)
    add(
        "mandrill api key",
        f"mailchimp transactional key {s}",
        s,
        "Mailchimp Transactional (Mandrill) API key: md- + 22 characters",
    )
    s = "re" + "_" + rand(ALNUM, 8) + "_" + rand(ALNUM, 24)
    add(
        "resend api key",
        f"const resend = new Resend('{s}');",
        s,
        "Resend API key: re_ + 8 alnum + _ + 24 alnum",
    )
    s = "xkeysib" + "-" + rand(HEX, 64) + "-" + rand(ALNUM, 16)
    add(
        "brevo api key",
        f"brevo v3 key {s}",
        s,
        "Brevo (Sendinblue) API v3 key: xkeysib- + 64 hex + - + 16 alnum (gitleaks "
        "sendinblue-api-token)",
    )
    s = "xsmtpsib" + "-" + rand(HEX, 64) + "-" + rand(ALNUM, 16)
    add(
        "brevo smtp key",
        f"smtp-relay.brevo.com:587 login ops@acme.dev key {s}",
        s,
        "Brevo SMTP key: xsmtpsib- + 64 hex + - + 16 alnum",
    )
    s = rand(HEX, 40)
    add(
        "sparkpost api key",
        f'curl -H "Authorization: {s}" https://api.sparkpost.com/api/v1/transmissions',
        s,
        "SparkPost API key: 40 hex, sent bare in the Authorization header (no scheme)",
    )
    key, secret = rand(HEX, 32), rand(HEX, 32)
    add(
        "mailjet api credentials",
        f'mailjet = Client(auth=("{key}", "{secret}"), version="v3.1")',
        secret,
        "Mailjet API key and secret key: 32 hex each",
    )
    s = "B" + rand(B64, 43)
    add(
        "amazon ses smtp password",
        f"smtp.login('AKIA{rand(UPPER_ALNUM, 16)}', '{s}')  # email-smtp.eu-west-1.amazonaws.com",
        s,
        "Amazon SES SMTP credentials: AKIA user name and a 44-char base64 password",
    )
    s = " ".join(rand(LOWER, 4) for _ in range(4))
    add(
        "google app password",
        f'server.login("ops@acme.dev", "{s}")',
        s,
        "Google app password: 16 lowercase letters shown in four groups of four",
    )

    # --- Telephony and SMS ---------------------------------------------------------------------------
    section[0] = "telephony"
    s = rand(HEX, 32)
    add(
        "twilio auth token (positional)",
        f'client = Client("AC{rand(HEX, 32)}", "{s}")',
        s,
        "Twilio Account SID (AC + 32 hex) and auth token (32 hex) passed positionally",
    )
    s = rand(ALNUM, 16)
    add(
        "vonage api secret",
        f'client = Vonage(Auth(api_key="{rand(HEX, 8)}", api_secret="{s}"))',
        s,
        "Vonage (Nexmo) API key (8 hex) and API secret (16 alnum)",
    )
    s = rand(ALNUM, 40)
    add(
        "plivo auth token",
        f"client = plivo.RestClient('MA{rand(UPPER, 18)}', '{s}')",
        s,
        "Plivo auth id (MA/SA + 18 uppercase) and auth token (40 alnum)",
    )
    s = rand(ALNUM, 25)
    add(
        "messagebird access key",
        f"client = messagebird.Client('{s}')",
        s,
        "MessageBird access key: 25 alphanumerics (gitleaks messagebird-api-token)",
    )
    s = "KEY" + rand(HEX_UPPER, 32) + "_" + rand(ALNUM, 22)
    add(
        "telnyx api key",
        f"telnyx.api_key = {s!r}",
        s,
        "Telnyx API v2 key: KEY + 32 uppercase hex + _ + 22 alnum (TruffleHog telnyx)",
    )

    # --- Connection strings ------------------------------------------------------------------------
    section[0] = "connection strings"
    pw = password()
    add(
        "postgres keyword dsn",
        f'psql "host=db.internal port=5432 dbname=app user=app password={pw} sslmode=require"',
        pw,
        "libpq keyword/value connection string (host= dbname= user= password=)",
    )
    pw = password()
    add(
        "pgpass line",
        f"db.internal:5432:app:app_rw:{pw}",
        pw,
        "~/.pgpass: hostname:port:database:username:password",
    )
    pw = password()
    add(
        "mysql sqlalchemy url",
        f"SQLALCHEMY_DATABASE_URI = 'mysql+pymysql://app:{pw}@mysql.internal:3306/app?charset=utf8mb4'",
        pw,
        "SQLAlchemy URL dialect+driver://user:password@host/db",
    )
    pw = password()
    add(
        "mssql odbc connection string",
        "Driver={ODBC Driver 18 for SQL Server};Server=tcp:acme.database.windows.net,1433;"
        f"Database=app;Uid=app;Pwd={{{pw}}};Encrypt=yes;",
        pw,
        "ODBC connection string, password in braces: Pwd={…};",
    )
    pw = password()
    add(
        "jdbc sql server properties",
        f"jdbc:sqlserver://db.internal:1433;databaseName=app;user=app;password={pw};encrypt=true;",
        pw,
        "Microsoft JDBC URL with ;-separated properties (user=…;password=…;)",
    )
    pw = password()
    add(
        "jdbc oracle thin user/password",
        f"jdbc:oracle:thin:scott/{pw}@//oradb.internal:1521/ORCLPDB1",
        pw,
        "Oracle thin JDBC URL jdbc:oracle:thin:<user>/<password>@//host:port/service",
    )
    pw = password()
    add(
        "sqlplus connect string",
        f"sqlplus system/{pw}@//oradb:1521/XEPDB1 @migrate.sql",
        pw,
        "SQL*Plus logon user/password@//host:port/service",
    )
    pw = rand(ALNUM, 32)
    add(
        "rediss url with acl user",
        f"REDIS_URL=rediss://default:{pw}@eu2-clever-cat-31234.upstash.io:6379",
        pw,
        "Redis TLS URL with ACL user: rediss://<user>:<password>@host:port",
    )
    pw = password()
    add(
        "smtp url",
        f"EMAIL_URL=smtp+tls://mailer%40acme.dev:{pw}@smtp.mailgun.org:587",
        pw,
        "SMTP URL (django-environ style) smtp+tls://<user>:<password>@host:port",
    )
    pw = password()
    add(
        "ftp url",
        f"lftp ftp://deploy:{pw}@ftp.acme.dev/public_html",
        pw,
        "FTP URL ftp://<user>:<password>@host/path",
    )
    pw = password()
    add(
        "ldap bind password (-w)",
        f'ldapsearch -x -H ldaps://ldap.acme.dev -D "cn=admin,dc=acme,dc=dev" -w {pw} "(uid=bob)"',
        pw,
        "OpenLDAP tools: -D bind DN, -w bind password",
    )
    pw = password()
    add(
        "redis-cli -a",
        f"redis-cli -h cache.internal -p 6379 -a {pw} --no-auth-warning INFO",
        pw,
        "redis-cli -a <password>",
    )
    pw = password()
    add(
        "redis.conf requirepass",
        f"bind 0.0.0.0\nrequirepass {pw}\nmaxmemory 2gb",
        pw,
        "redis.conf directive requirepass <password>",
    )
    pw = password()
    add(
        "spring datasource properties",
        "spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.username=app\n"
        f"spring.datasource.password={pw}",
        pw,
        "Spring Boot application.properties spring.datasource.password=",
    )
    s = urllib.parse.quote(b64(32), safe="")
    add(
        "azure service bus sas token",
        "SharedAccessSignature sr=https%3a%2f%2facme.servicebus.windows.net%2forders"
        f"&sig={s}&se=1767225600&skn=RootManageSharedAccessKey",
        s,
        "Service Bus SAS token: SharedAccessSignature sr=<url>&sig=<url-encoded base64>&se=&skn=",
    )
    s = b64(64)
    add(
        "azure storage account key (cli)",
        f"az storage blob upload --account-name acmestore --account-key {s} -c backups "
        "-f db.bak -n db.bak",
        s,
        "Azure storage account key: 88-char base64, here as az --account-key",
    )
    s = rand(HEX, 32)
    add(
        "azure openai api-key header",
        "curl https://acme.openai.azure.com/openai/deployments/gpt4o/chat/completions"
        f'?api-version=2024-06-01 -H "api-key: {s}"',
        s,
        "Azure OpenAI key: 32 hex in the api-key header (TruffleHog azure_openai)",
    )
    s = b64(32)
    add(
        "azure app configuration connection string",
        f"Endpoint=https://acme.azconfig.io;Id={rand(ALNUM, 4)}-l0-s0:{rand(ALNUM, 20)};Secret={s}",
        s,
        "Azure App Configuration connection string Endpoint=…;Id=…;Secret=<base64>",
    )
    s = b64(32)
    add(
        "azure signalr connection string",
        f"Endpoint=https://acme.service.signalr.net;AccessKey={s};Version=1.0;",
        s,
        "Azure SignalR connection string Endpoint=…;AccessKey=<base64>;Version=1.0;",
    )

    # --- Cloud and infrastructure --------------------------------------------------------------------
    section[0] = "cloud and infrastructure"
    s = "1//0" + _rng.choice("eg") + rand(URLSAFE, 98)
    add(
        "google oauth refresh token (adc)",
        json.dumps(
            {
                "account": "",
                "client_id": rand(DIGITS, 12)
                + "-"
                + rand(LOWER_ALNUM, 32)
                + ".apps.googleusercontent.com",
                "client_secret": rand(URLSAFE, 24),
                "refresh_token": s,
                "type": "authorized_user",
            },
            indent=2,
        ),
        s,
        "gcloud application_default_credentials.json (authorized_user), refresh token 1//0…",
    )
    s = rand(B64, 40)
    add(
        "gcs hmac key (boto)",
        f"[Credentials]\ngs_access_key_id = GOOG1E{rand(UPPER_ALNUM, 55)}\n"
        f"gs_secret_access_key = {s}",
        s,
        "Cloud Storage HMAC key: access id GOOG1… (61 chars), secret 40 base64",
    )
    s = rand(B64, 43)
    add(
        "digitalocean spaces key",
        "[spaces]\ntype = s3\nprovider = DigitalOcean\n"
        f"access_key_id = DO00{rand(UPPER_ALNUM, 16)}\nsecret_access_key = {s}\n"
        "endpoint = fra1.digitaloceanspaces.com",
        s,
        "Spaces access key DO00 + 16 and 43-char base64 secret, in an rclone remote",
    )
    s = rand(HEX, 64)
    add(
        "linode cli token",
        f"[DEFAULT]\ndefault-user = bob\n\n[bob]\ntoken = {s}\nregion = eu-central",
        s,
        "Linode personal access token: 64 hex, in linode-cli config",
    )
    s = rand(ALNUM, 64)
    add(
        "hetzner cloud token",
        f'provider "hcloud" {{\n  token = "{s}"\n}}',
        s,
        "Hetzner Cloud API token: 64 alphanumerics",
    )
    s = rand(HEX, 37)
    add(
        "cloudflare global api key",
        'curl -H "X-Auth-Email: ops@acme.dev" '
        f'-H "X-Auth-Key: {s}" https://api.cloudflare.com/client/v4/zones',
        s,
        "Cloudflare Global API Key: 37 hex in X-Auth-Key (gitleaks cloudflare-global-api-key)",
    )
    s = "v1.0" + "-" + rand(HEX, 24) + "-" + rand(HEX, 146)
    add(
        "cloudflare origin ca key",
        f"origin-ca-issuer service key {s}",
        s,
        "Cloudflare Origin CA key: v1.0-<24 hex>-<146 hex> (gitleaks cloudflare-origin-ca-key)",
    )
    blob = json.dumps({"a": rand(HEX, 32), "t": uuid4(), "s": b64(32)}, separators=(",", ":"))
    s = base64.b64encode(blob.encode()).decode()
    add(
        "cloudflare tunnel token",
        f"cloudflared tunnel run --token {s}",
        s,
        "cloudflared tunnel token: base64 of {a: account tag, t: tunnel id, s: secret}",
    )
    s = rand(URLSAFE, 32)
    add(
        "fastly api token",
        f'curl -H "Fastly-Key: {s}" https://api.fastly.com/service',
        s,
        "Fastly API token: 32 url-safe characters in the Fastly-Key header",
    )
    s = rand(ALNUM, 24)
    add(
        "vercel token",
        f"vercel deploy --prod --token {s}",
        s,
        "Vercel access token: 24 alphanumerics (TruffleHog vercel)",
    )
    s = "nfp" + "_" + rand(ALNUM, 36)
    add(
        "netlify personal access token",
        f"netlify deploy --prod --auth {s}",
        s,
        "Netlify personal access token: nfp_ + 36 (TruffleHog netlify)",
    )
    s = "rnd" + "_" + rand(ALNUM, 32)
    add(
        "render api key",
        f"render api key {s}",
        s,
        "Render API key: rnd_ + 32 alphanumerics",
    )
    s = "HRKU" + "-AA" + rand(URLSAFE, 58)
    add(
        "heroku api key (HRKU)",
        f"heroku authorizations:create -> Token: {s}",
        s,
        "Heroku API key, new format: HRKU-AA + 58 (gitleaks heroku-api-key-v2)",
    )
    s = rand(ALNUM, 30)
    add(
        "alibaba cloud access key secret",
        "aliyun configure set --profile prod --mode AK --region cn-hangzhou "
        f"--access-key-id LTAI{rand(ALNUM, 20)} --access-key-secret {s}",
        s,
        "Alibaba Cloud AccessKey id LTAI + 20 and secret 30 alphanumerics",
    )
    s = rand(ALNUM, 32)
    add(
        "tencent cloud secret key",
        f"tccli configure set secretId AKID{rand(ALNUM, 32)} secretKey {s} region ap-guangzhou",
        s,
        "Tencent Cloud SecretId AKID + 32 and SecretKey 32 alphanumerics",
    )
    s = rand(URLSAFE, 44)
    add(
        "ibm cloud api key",
        f"ibmcloud login --apikey {s} -r us-south",
        s,
        "IBM Cloud API key: 44 url-safe characters (TruffleHog ibmclouduserkey)",
    )
    s = uuid4()
    add(
        "scaleway secret key",
        f"access_key: SCW{rand(UPPER_ALNUM, 17)}\nsecret_key: {s}\n"
        f"default_organization_id: {uuid4()}",
        s,
        "Scaleway ~/.config/scw/config.yaml: access key SCW + 17, secret key UUID",
    )
    s = "K00" + rand(DIGITS, 1) + rand(URLSAFE.replace("-", "").replace("_", ""), 27)
    add(
        "backblaze b2 application key",
        f"b2 account authorize 00{rand(HEX, 23)} {s}",
        s,
        "Backblaze B2 application key id (25 hex) and application key (31 chars, K00…)",
    )
    s = rand(URLSAFE, 27)
    add(
        "cloudinary url",
        f"CLOUDINARY_URL=cloudinary://{rand(DIGITS, 15)}:{s}@acme-media",
        s,
        "CLOUDINARY_URL=cloudinary://<15-digit key>:<27-char secret>@<cloud name>",
    )
    s = "sha256~" + rand(URLSAFE, 43)
    add(
        "openshift user token",
        f"oc login --token={s} --server=https://api.cluster.acme.dev:6443",
        s,
        "OpenShift OAuth access token: sha256~ + 43 (gitleaks openshift-user-token)",
    )
    s = rand(LOWER_ALNUM, 6) + "." + rand(LOWER_ALNUM, 16)
    add(
        "kubeadm bootstrap token",
        f"kubeadm join 10.0.0.10:6443 --token {s} --discovery-token-ca-cert-hash sha256:"
        + rand(HEX, 64),
        s,
        "Kubernetes bootstrap token: [a-z0-9]{6}.[a-z0-9]{16}",
    )
    s = "K10" + rand(HEX, 64) + "::server:" + rand(HEX, 32)
    add(
        "k3s node token",
        f"curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.10:6443 K3S_TOKEN={s} sh -",
        s,
        "k3s secure join token: K10<64 hex CA hash>::server:<32 hex>",
    )
    s = "SWMTKN" + "-1-" + rand(LOWER_ALNUM, 50) + "-" + rand(LOWER_ALNUM, 25)
    add(
        "docker swarm join token",
        f"docker swarm join --token {s} 10.0.0.10:2377",
        s,
        "Docker swarm join token: SWMTKN-1-<50 base36>-<25 base36>",
    )
    s = b64(32)
    add(
        "consul gossip encryption key",
        f'datacenter = "fra1"\nencrypt = "{s}"\nserver = true',
        s,
        "Consul gossip key: encrypt = <44-char base64 of 32 bytes>",
    )
    s = b64(33)
    add(
        "vault unseal key",
        f"Unseal Key 1: {s}\nUnseal Key 2: {b64(33)}\n\nVault initialized with 5 key shares",
        s,
        "vault operator init output: Unseal Key N: <44-char base64>",
    )
    s = "ABSK" + base64.b64encode(b"BedrockAPIKey-" + raw(100)).decode()
    add(
        "amazon bedrock api key",
        f"bedrock long-term key {s}",
        s,
        "Amazon Bedrock long-term API key: ABSK + base64 (gitleaks "
        "aws-amazon-bedrock-api-key-long-lived)",
    )
    s = "2" + rand(ALNUM, 26) + "_" + rand(ALNUM, 21)
    add(
        "ngrok authtoken",
        f"ngrok config add-authtoken {s}",
        s,
        "ngrok authtoken: 2 + 26 alnum + _ + 21 alnum",
    )

    # --- Package registries and build tools ------------------------------------------------------------
    section[0] = "package registries"
    s = "rubygems" + "_" + rand(HEX, 48)
    add(
        "rubygems api key",
        f"---\n:rubygems_api_key: {s}",
        s,
        "RubyGems API key: rubygems_ + 48 hex, in ~/.gem/credentials (gitleaks)",
    )
    s = "oy2" + rand(LOWER_ALNUM, 43)
    add(
        "nuget api key",
        f"dotnet nuget push Acme.Core.1.4.0.nupkg --api-key {s} --source https://api.nuget.org/v3/index.json",
        s,
        "NuGet.org API key: oy2 + 43 lowercase alphanumerics",
    )
    s = "cio" + rand(ALNUM, 32)
    add(
        "crates.io token",
        f"cargo login {s}",
        s,
        "crates.io API token: cio + 32 alphanumerics",
    )
    s = "dckr" + "_pat_" + rand(URLSAFE, 27)
    add(
        "docker hub personal access token",
        f"echo {s} | docker login -u acme --password-stdin",
        s,
        "Docker Hub PAT: dckr_pat_ + 27 (TruffleHog dockerhub)",
    )
    s = "dckr" + "_oat_" + rand(URLSAFE, 32)
    add(
        "docker hub organization access token",
        f"org token for CI: {s}",
        s,
        "Docker Hub organization access token: dckr_oat_ + 32 (TruffleHog dockerhub)",
    )
    s = "ghr" + "_" + rand(ALNUM, 36)
    add(
        "github refresh token",
        f"refreshed the app user token, refresh token {s}",
        s,
        "GitHub user-to-server refresh token: ghr_ + alphanumerics (gitleaks github-refresh-token)",
    )
    s = "gldt" + "-" + rand(URLSAFE, 20)
    add(
        "gitlab deploy token",
        f"deploy token gitlab+deploy-token-42 / {s}",
        s,
        "GitLab deploy token: gldt- + 20 (gitleaks gitlab-deploy-token)",
    )
    s = "GR1348941" + rand(URLSAFE, 20)
    add(
        "gitlab runner registration token (legacy)",
        f"gitlab-runner register --url https://gitlab.acme.dev --registration-token {s}",
        s,
        "GitLab runner registration token: GR1348941 + 20",
    )
    s = "ATBB" + rand(ALNUM, 32)
    add(
        "bitbucket app password",
        f"app password for bob: {s}",
        s,
        "Bitbucket app password: ATBB + alphanumerics (TruffleHog bitbucketapppassword)",
    )
    s = "AKCp" + rand(ALNUM, 69)
    add(
        "jfrog artifactory api key",
        f"jfrog artifactory key {s}",
        s,
        "Artifactory API key: AKCp + 69 alphanumerics (gitleaks artifactory-api-key)",
    )
    s = "cmVmdGtuOjAxOj" + rand(ALNUM, 50)
    add(
        "jfrog reference token",
        f"jf config add prod --url=https://acme.jfrog.io --access-token={s}",
        s,
        "Artifactory reference token: cmVmd… (base64 of reftkn:01:), 64 chars (gitleaks)",
    )
    pw = password()
    add(
        "maven settings.xml password",
        f"<server>\n  <id>ossrh</id>\n  <username>acme</username>\n  <password>{pw}</password>\n</server>",
        pw,
        "Maven settings.xml <server><password>",
    )
    pw = password()
    add(
        "nuget.config cleartext password",
        f'<add key="Username" value="ci" />\n<add key="ClearTextPassword" value="{pw}" />',
        pw,
        "nuget.config packageSourceCredentials ClearTextPassword (gitleaks nuget-config-password)",
    )
    pw = rand(HEX, 40)
    add(
        "composer auth.json",
        json.dumps(
            {"http-basic": {"repo.packagist.com": {"username": "token", "password": pw}}},
            indent=4,
        ),
        pw,
        "Composer auth.json http-basic username/password",
    )
    pw = password()
    add(
        "gradle signing password",
        f"signing.keyId=24875D73\nsigning.password={pw}\nsigning.secretKeyRingFile=/home/ci/.gnupg/secring.gpg",
        pw,
        "gradle.properties signing.password=",
    )
    s = "CLOJARS" + "_" + rand(LOWER_ALNUM, 60)
    add(
        "clojars deploy token",
        f"clojars deploy token {s}",
        s,
        "Clojars deploy token: CLOJARS_ + 60 (gitleaks clojars-api-token)",
    )

    # --- Observability ------------------------------------------------------------------------------
    section[0] = "observability"
    s = rand(HEX, 32) + "FFFFNRAL"
    add(
        "new relic license key",
        f"common: &default_settings\n  license_key: {s}\n  app_name: api",
        s,
        "New Relic ingest license key: 40 chars ending NRAL (TruffleHog newreliclicensekey)",
    )
    s = "NRII" + "-" + rand(URLSAFE, 32)
    add(
        "new relic insights insert key",
        f"insights insert key {s}",
        s,
        "New Relic Insights insert key: NRII- + 32 (gitleaks new-relic-insert-key)",
    )
    blob = json.dumps(
        {"k": rand(ALNUM, 32), "n": "ci-deploy", "id": int(rand(DIGITS, 6))},
        separators=(",", ":"),
    )
    s = base64.b64encode(blob.encode()).decode()
    add(
        "grafana api key (legacy)",
        f"grafana key {s}",
        s,
        "Grafana API key: base64 of {k, n, id}, starting eyJrIjoi (gitleaks grafana-api-key)",
    )
    blob = json.dumps(
        {"o": rand(DIGITS, 6), "n": "stack-ci", "k": rand(ALNUM, 24), "m": {"r": "prod-eu-west-0"}},
        separators=(",", ":"),
    )
    s = "glc" + "_" + base64.b64encode(blob.encode()).decode()
    add(
        "grafana cloud access policy token",
        f"grafana cloud token {s}",
        s,
        "Grafana Cloud access policy token: glc_ + base64 JSON (gitleaks grafana-cloud-api-token)",
    )
    s = rand(HEX, 32)
    add(
        "sentry dsn with secret (legacy)",
        f"sentry_sdk.init('https://{rand(HEX, 32)}:{s}@o{rand(DIGITS, 6)}.ingest.sentry.io/{rand(DIGITS, 7)}')",
        s,
        "Legacy Sentry DSN https://<public key>:<secret key>@host/<project>",
    )
    s = "sntryu" + "_" + rand(HEX, 64)
    add(
        "sentry user auth token",
        f"sentry-cli --auth-token {s} releases list",
        s,
        "Sentry user auth token: sntryu_ + 64 hex (gitleaks sentry-user-token)",
    )
    s = uuid4()
    add(
        "splunk hec token",
        "curl -k https://splunk.acme.dev:8088/services/collector "
        f'-H "Authorization: Splunk {s}" -d \'{{"event": "deploy"}}\'',
        s,
        "Splunk HTTP Event Collector token: UUID with the Splunk auth scheme",
    )
    s = "dt0c01" + "." + rand(UPPER_ALNUM, 24) + "." + rand(UPPER_ALNUM, 64)
    add(
        "dynatrace api token",
        f"dynatrace token {s}",
        s,
        "Dynatrace API token: dt0c01.<24>.<64> (gitleaks dynatrace-api-token)",
    )
    s = rand(ALNUM, 22)
    add(
        "honeycomb api key",
        f'curl https://api.honeycomb.io/1/events/prod -H "X-Honeycomb-Team: {s}" -d @event.json',
        s,
        "Honeycomb API key: 22 alphanumerics in X-Honeycomb-Team (TruffleHog honeycomb)",
    )
    s = rand(HEX, 32)
    add(
        "rollbar server token",
        f"rollbar.init('{s}', 'production')",
        s,
        "Rollbar post_server_item access token: 32 hex",
    )
    s = "u+" + rand(URLSAFE, 18)
    add(
        "pagerduty rest api token",
        f'curl -H "Authorization: Token token={s}" https://api.pagerduty.com/incidents',
        s,
        "PagerDuty REST API key: u+ + 18, Authorization: Token token=… (TruffleHog pagerdutyapikey)",
    )
    s = uuid4()
    add(
        "opsgenie api key",
        f'curl -H "Authorization: GenieKey {s}" https://api.opsgenie.com/v2/alerts',
        s,
        "Opsgenie API key: UUID with the GenieKey scheme",
    )
    s = uuid4()
    add(
        "loggly customer token",
        f"curl -d 'hello' https://logs-01.loggly.com/inputs/{s}/tag/http/",
        s,
        "Loggly customer token: UUID in the /inputs/<token>/ path",
    )
    s = "xaat" + "-" + uuid4()
    add(
        "axiom api token",
        f"axiom auth login --token {s}",
        s,
        "Axiom API token: xaat- + UUID",
    )
    s = "pnu" + "_" + rand(ALNUM, 36)
    add(
        "prefect api key",
        f"prefect cloud login --key {s}",
        s,
        "Prefect Cloud API key: pnu_ + 36 (gitleaks prefect-api-token)",
    )

    # --- Payments ---------------------------------------------------------------------------------
    section[0] = "payments"
    s = "sq0csp" + "-" + rand(URLSAFE, 43)
    add(
        "square oauth application secret",
        f"square app secret {s}",
        s,
        "Square OAuth application secret: sq0csp- + 43",
    )
    s = (
        "AQE"
        + rand(B64, 89)
        + "==-"
        + rand(B64, 43)
        + "=-"
        + rand(ALNUM, 6)
        + ";"
        + rand(ALNUM, 3)
        + "}%="
        + rand(ALNUM, 4)
    )
    add(
        "adyen api key",
        f"adyen checkout key {s}",
        s,
        "Adyen API key: AQE… base64, -<base64>=-<16 printable> (Adyen docs, API credentials)",
    )
    s = "access_token$production$" + rand(LOWER_ALNUM, 16) + "$" + rand(HEX, 32)
    add(
        "braintree access token",
        f"gateway = braintree.BraintreeGateway(access_token='{s}')",
        s,
        "Braintree (PayPal) access token: access_token$production$<16>$<32 hex>",
    )
    s = rand(ALNUM, 24)
    add(
        "razorpay key secret",
        f'client = razorpay.Client(auth=("rzp_live_{rand(ALNUM, 14)}", "{s}"))',
        s,
        "Razorpay key id rzp_live_ + 14 and key secret 24 alphanumerics",
    )
    s = "A21AA" + rand(URLSAFE, 92)
    add(
        "paypal rest access token",
        f"paypal token {s}",
        s,
        "PayPal REST OAuth access token: A21AA + ~90 url-safe",
    )
    s = "sk_sbox_" + rand(LOWER_ALNUM, 26)
    add(
        "checkout.com secret key",
        f"checkout secret key {s}",
        s,
        "Checkout.com secret key: sk_sbox_ (sandbox) + 26 lowercase alphanumerics",
    )
    s = "FLWSECK" + "-" + rand(HEX, 32) + "-X"
    add(
        "flutterwave secret key",
        f"flutterwave {s}",
        s,
        "Flutterwave secret key: FLWSECK- + 32 hex + -X (TruffleHog flutterwave)",
    )
    s = "live" + "_" + rand(ALNUM, 30)
    add(
        "mollie api key",
        f"mollie.setApiKey('{s}');",
        s,
        "Mollie API key: live_ + 30 alphanumerics",
    )
    s = "access-production-" + uuid4()
    add(
        "plaid access token",
        f"plaid item access token {s}",
        s,
        "Plaid access token: access-production-<uuid> (gitleaks plaid-api-token)",
    )
    s = "shippo" + "_live_" + rand(HEX, 40)
    add(
        "shippo api token",
        f"shippo.config.api_key = {s!r}",
        s,
        "Shippo API token: shippo_live_ + 40 hex (gitleaks)",
    )
    s = "EZAK" + rand(ALNUM, 54)
    add(
        "easypost api key",
        f"easypost key {s}",
        s,
        "EasyPost production key: EZAK + 54 (gitleaks easypost-api-token)",
    )
    s = "duffel" + "_live_" + rand(URLSAFE, 43)
    add(
        "duffel access token",
        f"duffel {s}",
        s,
        "Duffel access token: duffel_live_ + 43 (gitleaks duffel-api-token)",
    )

    # --- AI providers -----------------------------------------------------------------------------------
    section[0] = "AI providers"
    s = "api" + "_org_" + rand(string.ascii_letters, 34)
    add(
        "hugging face org token (legacy)",
        f"hf org token {s}",
        s,
        "Hugging Face organization API token: api_org_ + 34 letters (gitleaks)",
    )
    s = rand(ALNUM, 40)
    add(
        "cohere api key",
        f'co = cohere.ClientV2("{s}")',
        s,
        "Cohere API key: 40 alphanumerics (gitleaks cohere-api-token)",
    )
    s = rand(ALNUM, 32)
    add(
        "mistral api key",
        f"mistral la plateforme key {s}",
        s,
        "Mistral API key: 32 alphanumerics",
    )
    s = "tgp" + "_v1_" + rand(URLSAFE, 43)
    add(
        "together ai api key",
        f"together key {s}",
        s,
        "Together AI API key: tgp_v1_ + 43",
    )
    s = "fw" + "_" + rand(ALNUM, 24)
    add(
        "fireworks api key",
        f"fireworks key {s}",
        s,
        "Fireworks AI API key: fw_ + 24 alphanumerics",
    )
    s = "pa" + "-" + rand(URLSAFE, 43)
    add(
        "voyage ai api key",
        f"vo = voyageai.Client('{s}')",
        s,
        "Voyage AI API key: pa- + 43",
    )
    s = "sk" + "_" + rand(HEX, 48)
    add(
        "elevenlabs api key",
        f'curl -H "xi-api-key: {s}" https://api.elevenlabs.io/v1/voices',
        s,
        "ElevenLabs API key: sk_ + 48 hex in xi-api-key (TruffleHog elevenlabs v2)",
    )
    s = rand(HEX, 40)
    add(
        "deepgram api key",
        f'deepgram = DeepgramClient("{s}")',
        s,
        "Deepgram API key: 40 hex (TruffleHog deepgram)",
    )
    s = "csk" + "-" + rand(LOWER_ALNUM, 48)
    add(
        "cerebras api key",
        f"cerebras key {s}",
        s,
        "Cerebras API key: csk- + 48 lowercase alphanumerics",
    )
    s = "tvly" + "-" + rand(ALNUM, 32)
    add(
        "tavily api key",
        f"TavilyClient('{s}')",
        s,
        "Tavily API key: tvly- + 32 alphanumerics",
    )
    s = rand(HEX, 40)
    add(
        "weights & biases api key",
        f"wandb login {s}",
        s,
        "W&B API key: 40 hex (TruffleHog weightsandbiases)",
    )
    s = "nvapi" + "-" + rand(URLSAFE, 64)
    add(
        "nvidia api key",
        f"nvidia nim key {s}",
        s,
        "NVIDIA API catalog / NIM key: nvapi- + 64",
    )
    s = "as" + "-" + rand(ALNUM, 22)
    add(
        "modal token secret",
        f"modal token set --token-id ak-{rand(ALNUM, 22)} --token-secret {s}",
        s,
        "Modal token id ak- + 22 and token secret as- + 22",
    )

    # --- CI and delivery ----------------------------------------------------------------------------------
    section[0] = "CI and delivery"
    s = "CCIPAT" + "_" + rand(ALNUM, 22) + "_" + rand(HEX, 40)
    add(
        "circleci personal api token",
        f"circleci setup --token {s} --host https://circleci.com",
        s,
        "CircleCI personal API token: CCIPAT_<22 alnum>_<40 hex> (TruffleHog circleci)",
    )
    s = "bkua" + "_" + rand(LOWER_ALNUM, 40)
    add(
        "buildkite api access token",
        f"bk configure --token {s}",
        s,
        "Buildkite API access token: bkua_ + 40 (TruffleHog buildkite)",
    )
    s = rand(ALNUM, 22)
    add(
        "travis ci api token",
        f"endpoints:\n  https://api.travis-ci.com/:\n    access_token: {s}",
        s,
        "Travis CI API token: 22 alphanumerics, in ~/.travis/config.yml (gitleaks travisci)",
    )
    s = "11" + rand(HEX, 32)
    add(
        "jenkins api token (cli -auth)",
        f"java -jar jenkins-cli.jar -s https://ci.acme.dev/ -auth bob:{s} build deploy",
        s,
        "Jenkins API token: 34 hex starting 11, passed as -auth user:token",
    )
    s = "eyJ0eXAiOiAiVENWMiJ9." + rand(URLSAFE, 36) + "." + rand(URLSAFE, 48)
    add(
        "teamcity access token",
        f"teamcity token {s}",
        s,
        "TeamCity access token: eyJ0eXAiOiAiVENWMiJ9 (base64 of typ TCV2) . <36> . <48>",
    )
    s = "squ" + "_" + rand(HEX, 40)
    add(
        "sonarqube user token",
        f"mvn verify sonar:sonar -Dsonar.host.url=https://sonar.acme.dev -Dsonar.token={s}",
        s,
        "SonarQube user token: squ_ + 40 hex (gitleaks sonar-api-token)",
    )
    s = uuid4()
    add(
        "snyk auth token",
        f"snyk auth {s}",
        s,
        "Snyk API token: UUID (gitleaks snyk-api-token)",
    )
    s = uuid4()
    add(
        "codecov upload token",
        f"codecovcli upload-process -t {s} -f coverage.xml",
        s,
        "Codecov upload token: UUID",
    )
    s = rand(UPPER_ALNUM, 29)
    add(
        "github actions runner registration token",
        f"./config.sh --url https://github.com/acme/api --token {s} --labels linux",
        s,
        "GitHub Actions self-hosted runner registration token: 29 uppercase alphanumerics",
    )
    s = "API" + "-" + rand(UPPER_ALNUM, 26)
    add(
        "octopus deploy api key",
        f"octo push --package app.1.0.0.zip --server https://octo.acme.dev --apiKey {s}",
        s,
        "Octopus Deploy API key: API- + 26 uppercase alphanumerics (gitleaks octopus-deploy-api-key)",
    )
    s = "pat" + "." + rand(URLSAFE, 22) + "." + rand(ALNUM, 24) + "." + rand(ALNUM, 20)
    add(
        "harness api key",
        f"harness login --api-key {s} --account-id {rand(URLSAFE, 22)}",
        s,
        "Harness API key: pat.<22>.<24>.<20> (gitleaks harness-api-key)",
    )

    # --- Other SaaS ---------------------------------------------------------------------------------------
    section[0] = "other SaaS"
    s = "pat" + "-na1-" + uuid4()
    add(
        "hubspot private app token",
        f"hubspot private app token {s}",
        s,
        "HubSpot private app access token: pat-na1-<uuid> (TruffleHog hubspot_apikey v2)",
    )
    s = "figd" + "_" + rand(URLSAFE, 40)
    add(
        "figma personal access token",
        f'curl -H "X-Figma-Token: {s}" https://api.figma.com/v1/me',
        s,
        "Figma PAT: figd_ + 40 in X-Figma-Token (TruffleHog figmapersonalaccesstoken v2)",
    )
    s = "2/" + rand(DIGITS, 16) + "/" + rand(DIGITS, 16) + ":" + rand(HEX, 32)
    add(
        "asana personal access token",
        f"asana pat {s}",
        s,
        "Asana PAT (v2): 2/<user gid>/<token gid>:<32 hex>",
    )
    s = "pk" + "_" + rand(DIGITS, 8) + "_" + rand(UPPER_ALNUM, 32)
    add(
        "clickup personal token",
        f"clickup {s}",
        s,
        "ClickUp personal token: pk_<7-9 digits>_<32 uppercase alnum> (TruffleHog)",
    )
    s = "CFPAT" + "-" + rand(URLSAFE, 43)
    add(
        "contentful management token",
        f"contentful login --management-token {s}",
        s,
        "Contentful personal access token: CFPAT- + 43 (TruffleHog)",
    )
    s = "sl." + rand(URLSAFE, 135)
    add(
        "dropbox short-lived token",
        f"dropbox token {s}",
        s,
        "Dropbox short-lived access token: sl. + 135+ (gitleaks dropbox-short-lived-api-token)",
    )
    s = "00D" + rand(ALNUM, 12) + "!" + rand(ALNUM + "._", 96)
    add(
        "salesforce access token",
        f"Access Token     {s}\nInstance Url     https://acme.my.salesforce.com",
        s,
        "Salesforce session id: 00D<12>!<96> as sf org display prints it (TruffleHog salesforce)",
    )
    s = base64.b64encode(f"tok:{uuid4()}:1:0".encode()).decode()
    add(
        "intercom access token",
        f"intercom token {s}",
        s,
        "Intercom access token: base64 of tok:<uuid>:…, starting dG9rOj",
    )
    s = "sdk" + "-" + uuid4()
    add(
        "launchdarkly server sdk key",
        f"ldclient.set_config(Config('{s}'))",
        s,
        "LaunchDarkly server-side SDK key: sdk-<uuid v4> (TruffleHog launchdarkly)",
    )
    s = "tfp" + "_" + rand(URLSAFE, 44) + "_" + rand(URLSAFE, 14)
    add(
        "typeform personal token",
        f"typeform {s}",
        s,
        "Typeform personal token: tfp_ + 59 (gitleaks typeform-api-token)",
    )
    s = "fio" + "-u-" + rand(URLSAFE, 64)
    add(
        "frame.io developer token",
        f"frameio token {s}",
        s,
        "Frame.io developer token: fio-u- + 64 (gitleaks frameio-api-token)",
    )
    s = "A" * 22 + rand(ALNUM, 30) + "%3D" + rand(ALNUM, 50)
    add(
        "x (twitter) app bearer token",
        f"twitter bearer {s}",
        s,
        "X/Twitter app-only bearer token: 22 A's + ~80-100 [A-Za-z0-9%] (gitleaks)",
    )
    s = "EAAM" + rand(ALNUM, 170)
    add(
        "meta page access token",
        f"graph api page token {s}",
        s,
        "Facebook/Meta page access token: EAAM + 100+ alphanumerics (gitleaks "
        "facebook-page-access-token)",
    )
    s = rand(ALNUM, 6) + "." + rand(ALNUM, 6) + ":" + rand(URLSAFE, 43)
    add(
        "ably api key",
        f"const ably = new Ably.Realtime('{s}');",
        s,
        "Ably API key: <app id>.<key id>:<key secret>",
    )

    # --- Local passwords in tools' own formats -------------------------------------------------------------
    section[0] = "tool passwords"
    s = "-".join(rand(ALNUM, 5) for _ in range(5))
    add(
        "nextcloud app password",
        f"https://cloud.acme.dev/remote.php/dav/files/bob/ bob {s}",
        s,
        "Nextcloud app password: five groups of five alphanumerics, here in /etc/davfs2/secrets",
    )
    s = "-".join(rand(LOWER, 4) for _ in range(4))
    add(
        "apple app-specific password",
        "xcrun notarytool store-credentials AC_NOTARY --apple-id dev@acme.dev "
        f"--team-id {rand(UPPER_ALNUM, 10)} --password {s}",
        s,
        "Apple app-specific password: xxxx-xxxx-xxxx-xxxx lowercase",
    )
    pw = password()
    add(
        "wpa_supplicant passphrase",
        f'network={{\n    ssid="acme-office"\n    psk="{pw}"\n}}',
        pw,
        'wpa_supplicant.conf network block psk="<passphrase>"',
    )
    s = rand(HEX, 64)
    add(
        "wpa_supplicant hashed psk",
        f'network={{\n    ssid="acme-lab"\n    psk={s}\n}}',
        s,
        "wpa_supplicant.conf raw PSK: psk=<64 hex>",
    )
    pw = password()
    add(
        "ipsec pre-shared key",
        f'%any 203.0.113.10 : PSK "{pw}"',
        pw,
        'strongSwan/Libreswan ipsec.secrets: <ids> : PSK "<secret>"',
    )
    pw = rand(ALNUM, 12)
    add(
        "snmp community string",
        f"snmpwalk -v2c -c {pw} 10.0.0.1 system",
        pw,
        "net-snmp -c <community>",
    )
    pw = password()
    add(
        "smbclient user%password",
        f"smbclient //fs01/share -U 'ACME/bob%{pw}' -c 'ls'",
        pw,
        "smbclient -U <user>%<password>",
    )
    pw = password()
    add(
        "powershell securestring from plain text",
        f'$pw = ConvertTo-SecureString "{pw}" -AsPlainText -Force',
        pw,
        "ConvertTo-SecureString <string> -AsPlainText -Force",
    )
    pw = password()
    add(
        "net use password",
        f"net use Z: \\\\fs01\\share {pw} /user:ACME\\bob /persistent:no",
        pw,
        "Windows net use <drive> <share> <password> /user:<user>",
    )
    pw = password()
    add(
        "mosquitto -P",
        f"mosquitto_pub -h mqtt.acme.dev -u sensor -P {pw} -t temp -m 21.5",
        pw,
        "mosquitto_pub/sub -u <user> -P <password>",
    )
    pw = password()
    add(
        "zip -P",
        f"zip -P {pw} backup.zip db.sql",
        pw,
        "zip -P <password>",
    )
    pw = password()
    add(
        "7z -p",
        f"7z a -p{pw} -mhe=on backup.7z ./db",
        pw,
        "7-Zip -p<password> (no space)",
    )
    pw = password()
    add(
        "htpasswd -b",
        f"htpasswd -b -c /etc/nginx/.htpasswd admin {pw}",
        pw,
        "htpasswd -b <file> <user> <password>",
    )
    s = rand(BASE32, 32)
    add(
        "totp seed uri",
        f"otpauth://totp/Acme:bob@acme.dev?secret={s}&issuer=Acme&digits=6",
        s,
        "Key Uri Format: otpauth://totp/<label>?secret=<base32>&issuer=",
    )
    pw = password()
    s = base64.b64encode(f"chacha20-ietf-poly1305:{pw}".encode()).decode().rstrip("=")
    add(
        "shadowsocks url",
        f"ss://{s}@203.0.113.5:8388#office",
        s,
        "SIP002 ss:// URL: base64(method:password)@host:port",
    )
    pw = password()
    add(
        "ansible inventory password",
        f"web01 ansible_host=10.0.0.5 ansible_user=deploy ansible_password={pw} "
        f"ansible_become_pass={pw}",
        pw,
        "Ansible inventory host vars ansible_password= / ansible_become_pass=",
    )
    pw = password()
    add(
        "rabbitmqctl add_user",
        f"rabbitmqctl add_user worker {pw}",
        pw,
        "rabbitmqctl add_user <user> <password>",
    )
    pw = password()
    add(
        "mysql replication source password",
        "CHANGE REPLICATION SOURCE TO SOURCE_HOST='db1', SOURCE_USER='repl', "
        f"SOURCE_PASSWORD='{pw}', SOURCE_AUTO_POSITION=1;",
        pw,
        "MySQL CHANGE REPLICATION SOURCE TO … SOURCE_PASSWORD='…'",
    )
    pw = rand(ALNUM, 8)
    add(
        "keepalived auth_pass",
        f"authentication {{\n    auth_type PASS\n    auth_pass {pw}\n}}",
        pw,
        "keepalived vrrp_instance authentication auth_pass (8 characters max)",
    )
    pw = password()
    add(
        "ssh-keygen -N",
        f"ssh-keygen -t ed25519 -N '{pw}' -f deploy_key",
        pw,
        "ssh-keygen -N <new passphrase>",
    )
    pw = password()
    add(
        "openssl enc -k",
        f"openssl enc -aes-256-cbc -salt -pbkdf2 -in db.sql -out db.sql.enc -k {pw}",
        pw,
        "openssl enc -k <password>",
    )
    s = b64(64)
    add(
        "bitwarden session key",
        f'export BW_SESSION="{s}"',
        s,
        "Bitwarden CLI session key printed by bw unlock: 88-char base64",
    )
    return out


HELDOUT_FORMATS: list[Format] = _formats()


@dataclass(frozen=True)
class ProseSecret:
    text: str
    secret: str


# A person typing a secret in a sentence: to a coding agent, in a note, in a commit message.
PROSE_SECRETS: list[ProseSecret] = [
    ProseSecret(t, s)
    for t, s in [
        ("the admin password for the staging box is hunter2-Blue!", "hunter2-Blue!"),
        ("root pw on build01 = Vq7#rLm2xPz, don't lose it", "Vq7#rLm2xPz"),
        ("wifi passphrase: correct-llama-stapler-91", "correct-llama-stapler-91"),
        ("use p@ssW0rd-Tango88 to log in to the grafana admin account", "p@ssW0rd-Tango88"),
        ("creds are bob / S3cr3t!Rain", "S3cr3t!Rain"),
        ("password for the jenkins admin is now Kx9-lumen-Farrow", "Kx9-lumen-Farrow"),
        ("my github password is Gr33nTea&Biscuits, I know I should change it", "Gr33nTea&Biscuits"),
        ("The new prod DB password: 7hV!qz2Lp0Wd", "7hV!qz2Lp0Wd"),
        ("set the mysql root password to Mar1gold_Quay and restarted it", "Mar1gold_Quay"),
        ("pw for the vpn is orbit-Salty-4417", "orbit-Salty-4417"),
        (
            "passphrase for my ssh key is 'tin lantern over mossy steps'",
            "tin lantern over mossy steps",
        ),
        ("the door PIN is 4821", "4821"),
        ("login: deploy, password: Fj3k!93mQa", "Fj3k!93mQa"),
        ("remember the router admin pass is Zebra#Cactus42", "Zebra#Cactus42"),
        ("I changed the sftp password to blueMoon!2026 for the vendor", "blueMoon!2026"),
        (
            "the secret for the webhook is wh-7fGq2LxP9zRt, paste it into the settings page",
            "wh-7fGq2LxP9zRt",
        ),
        (
            "bitwarden master password is Quiet-Harbor-Lamp-77 (don't put it anywhere else)",
            "Quiet-Harbor-Lamp-77",
        ),
        (
            "The password is Tr1ckyPelican$ with a capital T and P",
            "Tr1ckyPelican$",
        ),
        ("Dana's laptop login password is sunflower1987", "sunflower1987"),
        (
            "use 'Ld8#xWq!pe' as the keystore password when signing the release",
            "Ld8#xWq!pe",
        ),
        ("the redis auth is r3d1s-Lantern-09", "r3d1s-Lantern-09"),
        ("PW: Mango!Tide93 (for the staging rabbitmq)", "Mango!Tide93"),
        ("admin/Adm1n!Swift works on the test printer", "Adm1n!Swift"),
        ("ssh into the bastion as ops with password Harbor7!kite", "Harbor7!kite"),
        (
            "the grafana login is admin and the password is glitter-Fox-553",
            "glitter-Fox-553",
        ),
        ("password to unlock the backup archive: Nimbus_Atlas_2718", "Nimbus_Atlas_2718"),
        ("vault unseal passphrase is quartz-meadow-ember-12", "quartz-meadow-ember-12"),
        (
            "for the demo account, email demo@acme.dev, password DemoUser!2026",
            "DemoUser!2026",
        ),
        ("my banking pin is 7740 lol", "7740"),
        ("the pass for the shared drive is Oc3lot&Rain", "Oc3lot&Rain"),
        ("tell Sam the new wifi key is Coffee4Everyone!", "Coffee4Everyone!"),
        ("the jenkins password was reset to Plover-92-Anchor by IT", "Plover-92-Anchor"),
        ("legacy ftp account ftpuser uses Xy!9w2Lq7Mk as its password", "Xy!9w2Lq7Mk"),
        ("its password is 'Borealis#204', the account is svc-backup", "Borealis#204"),
        ("Xk2$Lomb9Trq is the password for the kafka admin user", "Xk2$Lomb9Trq"),
        ("the passcode for the conference bridge is 884213", "884213"),
        ("keychain password = fjord.Velvet.88", "fjord.Velvet.88"),
        ("our staging basic auth is preview:Sunny-Otter-31", "Sunny-Otter-31"),
        ("I set the pgadmin master password to Pg!Admin-Lark7", "Pg!Admin-Lark7"),
        (
            "the recovery passphrase for the encrypted disk: amber willow cradle 6042",
            "amber willow cradle 6042",
        ),
        ("THE ROOT PASSWORD IS NOW Qw3rty!Zx9Pl", "Qw3rty!Zx9Pl"),
        (
            "password — Sl3dge&Hammer77 — for the windows admin on ws07",
            "Sl3dge&Hammer77",
        ),
        (
            "in case you need it, the NAS admin password is n4s-Admin-Orchid",
            "n4s-Admin-Orchid",
        ),
        ("mot de passe du serveur de test : Ch4teau!Vin2026", "Ch4teau!Vin2026"),
        ("das Passwort für den Testserver ist Kuchen!Baum77", "Kuchen!Baum77"),
        (
            "api secret for the partner portal is pp_sec_8Fq2Lr9Xz, keep it private",
            "pp_sec_8Fq2Lr9Xz",
        ),
        (
            "ok so the password on the old jira is literally Pineapple-Express-9",
            "Pineapple-Express-9",
        ),
        ("db creds: user app_rw pass Wq9!tLz3Ke", "Wq9!tLz3Ke"),
        ("remember: the sudo password on the pi is raspberry-Crumble5", "raspberry-Crumble5"),
        ("Password for bob@acme.dev -> J7$kd92!mQ", "J7$kd92!mQ"),
    ]
]


# Sentences about passwords, keys, tokens and secrets that hold none: nothing may be redacted.
ORDINARY_PROSE: list[str] = [
    "the password reset flow sends an email with a link that expires after one hour",
    "rotate the API key every 90 days",
    "token expiry is 3600 seconds",
    "set PASSWORD_MIN_LENGTH=12 in the settings module",
    "the key is in 1Password under 'staging'",
    "the password is in the team vault, ask Dana for access",
    "the admin password for the staging box is stored in Bitwarden",
    "the root password was rotated yesterday; the new one is in the vault",
    "never paste a password into the chat, use the secret manager",
    "passwords must be at least twelve characters and include a symbol",
    "the password field should not autocomplete on the login page",
    "we hash passwords with argon2id, memory cost 64 MiB",
    "bcrypt truncates passwords longer than 72 bytes",
    "the API key goes in the X-API-Key header, not in the query string",
    "tokens are signed with RS256 and verified with the public key from the JWKS endpoint",
    "the refresh token is rotated on every use",
    "access tokens live for 15 minutes, refresh tokens for 30 days",
    "store the secret in AWS Secrets Manager and read it at startup",
    "the client secret is only shown once when you create the OAuth app",
    "if the token is expired the middleware returns 401",
    "the password hash column is 60 characters for bcrypt",
    "`password_hash` is nullable for users who sign in with SSO",
    "`api_key: str` is a required field of the Settings model",
    "the function `verify_password(plain, hashed)` returns a bool",
    "`get_secret(name)` raises KeyError when the secret does not exist",
    "`token_ttl` defaults to 3600",
    "`SECRET_KEY` comes from the environment in production",
    "rename `apiKey` to `api_key` in the Python client for consistency",
    "the `Authorization` header carries a bearer token",
    "the `tokenizer` splits the prompt into 4096 tokens at most",
    "max_tokens is 1024 for the summary call",
    "the signing key is rotated by the `rotate-keys` job every quarter",
    "keys are generated with `ssh-keygen -t ed25519`",
    "add your public key to `~/.ssh/authorized_keys` on the bastion",
    "the private key never leaves the HSM",
    "the GPG key expired, so the release signature check fails",
    "the TLS certificate and its key are mounted from a Kubernetes secret",
    "the secret is mounted at /run/secrets/db_password",
    "read the password from the file named by DB_PASSWORD_FILE",
    "the env var DB_PASSWORD is empty in CI, which is why the test is skipped",
    "export GITHUB_TOKEN before running the release script",
    "GITHUB_TOKEN needs the `contents: write` permission for the release job",
    "the token needs the repo and read:org scopes",
    "the PAT expired last week and the nightly build started failing",
    "revoke the leaked token first, then rewrite the history",
    "the password policy blocks the 10,000 most common passwords",
    "a password manager generates and fills passwords for you",
    "the login page shows 'wrong password' after three attempts and then locks for 15 minutes",
    "the reset token is a random 32-byte value stored hashed",
    "we compare tokens with hmac.compare_digest to avoid timing attacks",
    "the session cookie is HttpOnly, Secure and SameSite=Lax",
    "CSRF tokens are tied to the session",
    "the webhook secret is used to verify the X-Hub-Signature-256 header",
    "the secret scanner flagged a test fixture, but it was a placeholder",
    "use a placeholder like <your-api-key> in the README",
    "the staging key is the one labelled 'staging' in the dashboard",
    "ask ops for the database password, it is not in the repo",
    "the API token is passed via --token or the API_TOKEN env var",
    "the `--password-stdin` flag keeps the password out of the shell history",
    "the PIN pad on the door is broken, use the side entrance",
    "the 2FA code is six digits and changes every 30 seconds",
    "set up TOTP with any authenticator app",
    "recovery codes are shown once after enabling two-factor authentication",
    "the password expiry policy was removed following the NIST guidance",
    "the secrets are encrypted at rest with a KMS key",
    "the KMS key policy allows only the deploy role to decrypt",
    "sops encrypts the values, not the keys, of the YAML file",
    "the sealed secret can only be decrypted by the controller in the cluster",
    "the vault token is renewed by the agent sidecar",
    "the Stripe key in the test suite is a restricted test-mode key from the env",
    "the OpenAI key is read from OPENAI_API_KEY",
    "the key rotation script prints the key id, never the key",
    "the audit log records who read which secret, not the secret itself",
    "the password change endpoint requires the current password",
    "a 401 means the token is missing; a 403 means it lacks the scope",
    "tokens issued before the migration are no longer accepted",
    "the JWT payload has sub, exp, iat and scope claims",
    "the secret key base must be at least 64 characters",
    "the encryption key is derived from the master key with HKDF",
    "the keyring backend stores the token in the macOS Keychain",
    "credentials are read from ~/.aws/credentials with the prod profile",
    "the credential helper caches git credentials for 15 minutes",
    "Dependabot needs its own secrets, it cannot read Actions secrets",
    "the CI masks any secret it prints in the log",
    "we moved all secrets out of the .env file into Doppler",
    ".env is in .gitignore, .env.example is committed with empty values",
    "the API key for the weather service has a rate limit of 60 calls per minute",
    "the password input has a show/hide toggle",
    "the passphrase prompt appears because the key is encrypted",
    "run `ssh-add` once so the agent holds the decrypted key",
    "the key fingerprint is shown as SHA256 in the GitHub settings",
    "the token endpoint is https://login.acme.dev/oauth2/token",
    "the secret rotation Lambda runs on the first of every month",
    "compare the password hash, never the password",
    "the test user's password is set by the fixture from an env variable",
    "the primary key of the sessions table is the token hash",
    "the cache key includes the user id and the locale",
    "press the Escape key to close the dialog",
    "the keyboard shortcut for search is Ctrl+K",
    "the key takeaway: retries need jitter",
    "secret santa is on Friday, bring a gift under twenty euros",
    "the token bucket refills at ten tokens per second",
    "she passed the exam on the second try",
    "the pass rate of the test suite is 98 percent",
    "the password for the wifi is on the card at reception",
    "the admin password is whatever you set during setup",
    "password: see the vault entry for the staging database",
    "token: the one from the CI settings page",
    "ask me for the password in person, not over chat",
    "the secret is stored under secret/data/payments/stripe in Vault",
    "the key lives in the 'prod-signing' entry of the keystore",
    "a strong passphrase is four or more random words",
]
