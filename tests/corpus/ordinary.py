"""Ordinary developer text that holds no secret: what redaction must leave alone.

Written for this corpus (hand-written snippets, and generated ones for the random-looking parts:
lockfile integrity hashes, commit SHAs, UUIDs, image data, digests), seeded so the figure is
reproducible. `ORDINARY` is a list of (category, text). Much of it is deliberately close to a
secret: code that handles passwords and tokens, variables named after secrets with references as
values, long base64 and hex runs, `key=` query strings, Kubernetes objects that are not Secrets.
"""

from __future__ import annotations

import base64
import json
import random
import string

_rng = random.Random(7)
HEX = "0123456789abcdef"
ALNUM = string.ascii_letters + string.digits


def _hex(n: int) -> str:
    return "".join(_rng.choice(HEX) for _ in range(n))


def _b64(n_bytes: int) -> str:
    return base64.b64encode(bytes(_rng.randrange(256) for _ in range(n_bytes))).decode()


def _uuid() -> str:
    h = _hex(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _word() -> str:
    return _rng.choice(
        [
            "react",
            "lodash",
            "express",
            "chalk",
            "zod",
            "vite",
            "eslint",
            "jest",
            "axios",
            "dayjs",
            "uuid",
            "yargs",
            "semver",
            "debug",
            "ms",
            "rimraf",
            "glob",
            "minimatch",
            "tslib",
            "ws",
        ]
    )


def _version() -> str:
    return f"{_rng.randint(0, 18)}.{_rng.randint(0, 30)}.{_rng.randint(0, 40)}"


def _generated() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for _ in range(20):
        name, version = _word(), _version()
        out.append(
            (
                "package-lock.json",
                json.dumps(
                    {
                        f"node_modules/{name}": {
                            "version": version,
                            "resolved": f"https://registry.npmjs.org/{name}/-/{name}-{version}.tgz",
                            "integrity": "sha512-" + _b64(64),
                            "dev": True,
                        }
                    },
                    indent=2,
                ),
            )
        )
    for _ in range(10):
        name, version = _word(), _version()
        out.append(
            (
                "yarn.lock",
                f'"{name}@^{version}":\n  version "{version}"\n  resolved "https://registry.yarnpkg.com/'
                f'{name}/-/{name}-{version}.tgz#{_hex(40)}"\n  integrity sha512-{_b64(64)}\n',
            )
        )
    for _ in range(10):
        out.append(
            (
                "requirements hashes",
                f"{_word()}=={_version()} \\\n    --hash=sha256:{_hex(64)} \\\n    --hash=sha256:{_hex(64)}",
            )
        )
    for _ in range(8):
        out.append(
            (
                "Cargo.lock",
                f'[[package]]\nname = "{_word()}"\nversion = "{_version()}"\nsource = '
                f'"registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_hex(64)}"\n',
            )
        )
    for _ in range(8):
        out.append(
            (
                "go.sum",
                f"github.com/{_word()}/{_word()} v{_version()} h1:{_b64(32)}\n"
                f"github.com/{_word()}/{_word()} v{_version()}/go.mod h1:{_b64(32)}",
            )
        )
    for _ in range(15):
        sha = _hex(40)
        out.append(
            (
                "git log",
                f"commit {sha}\nAuthor: Dana Doe <dana@example.com>\nDate:   Tue Nov 3 10:2{_rng.randint(0, 9)}:00 2026 +0100\n\n"
                f"    Fix {_word()} retry loop (#{_rng.randint(100, 9999)})\n\n    Merge {_hex(7)} into {_hex(7)}",
            )
        )
    for _ in range(10):
        out.append(
            (
                "request log",
                f"2026-11-03T10:21:{_rng.randint(10, 59)}Z INFO request_id={_uuid()} trace={_hex(32)} "
                f"span={_hex(16)} GET /api/v2/users/{_uuid()} 200 {_rng.randint(3, 900)}ms",
            )
        )
    for _ in range(10):
        out.append(
            (
                "base64 image",
                f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgo{_b64(300)}" />',
            )
        )
    for _ in range(6):
        out.append(
            (
                "base64 json field",
                json.dumps({"thumbnail": _b64(240), "mime": "image/jpeg", "width": 120}),
            )
        )
    for _ in range(10):
        out.append(
            (
                "docker digest",
                f"{_word()}: digest: sha256:{_hex(64)} size: {_rng.randint(500, 3000)}\n"
                f"FROM python:3.12-slim@sha256:{_hex(64)}",
            )
        )
    for _ in range(8):
        out.append(
            (
                "checksums",
                f"{_hex(64)}  dist/{_word()}-{_version()}.tar.gz\n{_hex(32)}  dist/{_word()}.whl\n"
                f"sha1: {_hex(40)}",
            )
        )
    for _ in range(6):
        out.append(
            (
                "webpack output",
                f"asset main.{_hex(8)}.js 412 KiB [emitted] [immutable] (name: main)\n"
                f"asset vendors.{_hex(20)}.js 1.2 MiB [emitted]\nwebpack compiled in {_rng.randint(800, 9000)} ms",
            )
        )
    for _ in range(6):
        out.append(
            (
                "source map",
                json.dumps(
                    {
                        "version": 3,
                        "file": "app.js",
                        "mappings": "".join(_rng.choice(ALNUM + ";,") for _ in range(300)),
                    }
                ),
            )
        )
    return out


HAND_WRITTEN: list[tuple[str, str]] = [
    ("python", "password = getpass.getpass('Password: ')"),
    ("python", 'token = os.environ["GITHUB_TOKEN"]'),
    ("python", "api_key = settings.API_KEY"),
    (
        "python",
        "def verify_password(password: str, hashed: bytes) -> bool:\n    return bcrypt.checkpw(password.encode(), hashed)",
    ),
    ("python", "if not secret:\n    raise ValueError('missing secret')"),
    ("python", "self.token = token\nself.refresh_token = refresh_token"),
    ("python", "client = Client(api_key=os.getenv('API_KEY'))"),
    ("python", "PASSWORD_MIN_LENGTH = 12\nTOKEN_TTL_SECONDS = 3600"),
    ("python", "hashed = hashlib.sha256(password.encode()).hexdigest()"),
    (
        "python",
        "@app.post('/login')\ndef login(form: LoginForm):\n    user = auth(form.username, form.password)",
    ),
    (
        "python",
        "secret_name = 'prod/db/credentials'\nresponse = client.get_secret_value(SecretId=secret_name)",
    ),
    ("python", "tokens = tokenizer.encode(text)\nmax_tokens = 4096"),
    ("python", "key = (user_id, day)\ncache[key] = value"),
    ("python", "parser.add_argument('--token', help='API token (or set API_TOKEN)')"),
    ("python", "password_hash = db.Column(db.String(128))"),
    ("python", "assert response.json()['token_type'] == 'bearer'"),
    ("python", "sorted(items, key=lambda i: i.created_at)"),
    ("python", "jwt.decode(token, public_key, algorithms=['RS256'])"),
    (
        "python",
        "DATABASES = {'default': dj_database_url.config(default=os.environ['DATABASE_URL'])}",
    ),
    ("python", "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']"),
    (
        "typescript",
        "const token = await getAccessToken();\nheaders.set('Authorization', `Bearer ${token}`);",
    ),
    ("typescript", "export const API_KEY_HEADER = 'X-API-Key';"),
    ("typescript", "const password = form.get('password') as string;"),
    (
        "typescript",
        "if (!process.env.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');",
    ),
    ("typescript", "type Credentials = { username: string; password: string };"),
    ("typescript", "const [token, setToken] = useState<string | null>(null);"),
    ("typescript", "localStorage.removeItem('authToken');"),
    ("typescript", "router.get('/reset-password/:token', resetPasswordHandler);"),
    ("typescript", "export function hashKey(key: string): number { return murmur(key) >>> 0; }"),
    ("typescript", "const sessionKey = `session:${userId}`;"),
    ("go", 'token := r.Header.Get("Authorization")\nif token == "" {\n\treturn ErrUnauthorized\n}'),
    ("go", 'cfg.Password = os.Getenv("DB_PASSWORD")'),
    ("go", "func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {"),
    ("rust", 'let token = std::env::var("API_TOKEN").expect("API_TOKEN must be set");'),
    ("rust", "pub fn verify(password: &str, hash: &PasswordHash) -> Result<(), Error> {"),
    ("java", 'String password = System.getenv("DB_PASSWORD");'),
    ("java", '@Value("${jwt.secret}")\nprivate String jwtSecret;'),
    ("shell", "export GITHUB_TOKEN=$(gh auth token)"),
    ("shell", 'echo "$API_TOKEN" | docker login ghcr.io -u alice --password-stdin'),
    ("shell", "read -s -p 'Password: ' PASSWORD"),
    ("shell", "ssh-keygen -t ed25519 -C 'dana@example.com' -f ~/.ssh/id_ed25519"),
    (
        "shell",
        "git log --oneline -n 5\n3f2b8c1 Fix flaky test\n9a1c0de Bump deps\n77e0aa2 Add retries",
    ),
    (
        "shell",
        "npm install\n\nadded 1287 packages, and audited 1288 packages in 41s\n\n212 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities",
    ),
    (
        "shell",
        "$ pytest -q\n........................F...\nFAILED tests/test_auth.py::test_token_refresh - AssertionError: token expired\n1 failed, 27 passed in 3.41s",
    ),
    (
        "shell",
        "$ kubectl get pods\nNAME                      READY   STATUS    RESTARTS   AGE\napi-7d9f8b6c5d-x2k4q      1/1     Running   0          3h\nworker-5c8d7f9b4-qz8mn    1/1     Running   2          3h",
    ),
    (
        "shell",
        '$ docker ps\nCONTAINER ID   IMAGE          COMMAND                  STATUS\n4f2a9c1e7b3d   postgres:16    "docker-entrypoint.s…"   Up 2 hours',
    ),
    (
        "shell",
        "drwxr-xr-x  5 dana staff   160 Nov  3 10:21 .\n-rw-r--r--  1 dana staff  1204 Nov  3 10:20 .env.example\n-rw-------  1 dana staff   411 Nov  3 10:19 .npmrc",
    ),
    (
        "shell",
        "curl -s https://api.github.com/repos/acme/api/pulls?state=open&per_page=50 | jq '.[].title'",
    ),
    ("shell", "aws s3 cp ./dist s3://acme-static/ --recursive --profile prod"),
    ("shell", "gcloud auth application-default login"),
    ("shell", "vault kv get -field=password secret/db"),
    ("shell", "terraform plan -var-file=prod.tfvars -out=plan.out"),
    ("shell", "openssl req -new -key server.key -out server.csr -subj '/CN=acme.dev'"),
    ("shell", "mysql -u root -p app < schema.sql"),
    ("shell", "pip install -r requirements.txt --index-url https://pypi.org/simple"),
    ("shell", "make test PASSWORD_FILE=/run/secrets/db_password"),
    ("env", "NODE_ENV=production\nPORT=3000\nLOG_LEVEL=info\nTOKEN_TTL=3600"),
    ("env", "SECRET_FILE=/run/secrets/db\nAUTH_ENABLED=true\nMAX_TOKENS=4096"),
    ("env", "API_KEY=\nDB_PASSWORD=\n# fill these in from 1Password"),
    ("env", "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}"),
    ("env", "DATABASE_URL=${DATABASE_URL}\nREDIS_URL=redis://cache:6379/0"),
    ("env", "PASSWORD_RESET_URL=https://acme.dev/reset\nSESSION_COOKIE_NAME=sid"),
    (
        "yaml",
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n    steps:\n      - uses: actions/checkout@v4",
    ),
    (
        "yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: search,export\n",
    ),
    (
        "yaml",
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          envFrom:\n            - secretRef:\n                name: api-secrets",
    ),
    (
        "yaml",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets:\n      - db_password",
    ),
    (
        "yaml",
        "auth:\n  provider: oidc\n  token_endpoint: https://login.acme.dev/oauth2/token\n  scopes: [openid, profile]",
    ),
    ("yaml", "secret_name: my-secret-name\nmax_tokens: 4096\ntoken_ttl: 15m"),
    ("yaml", "password_policy:\n  min_length: 12\n  require_symbols: true"),
    (
        "toml",
        '[tool.poetry]\nname = "api"\nversion = "0.4.1"\n\n[tool.poetry.dependencies]\npython = "^3.12"',
    ),
    ("toml", "[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true"),
    (
        "json",
        json.dumps(
            {"compilerOptions": {"target": "ES2022", "strict": True, "paths": {"@/*": ["src/*"]}}},
            indent=2,
        ),
    ),
    (
        "json",
        json.dumps(
            {
                "login": {
                    "title": "Sign in",
                    "passwordLabel": "Password",
                    "forgot": "Forgot your password?",
                }
            },
            indent=2,
        ),
    ),
    ("json", json.dumps({"token_type": "bearer", "expires_in": 3600, "scope": "repo read:org"})),
    (
        "json",
        json.dumps(
            {"error": {"code": 401, "message": "The API key provided is invalid or expired."}}
        ),
    ),
    (
        "json",
        json.dumps(
            {
                "name": "api",
                "scripts": {"test": "vitest run", "lint": "eslint ."},
                "engines": {"node": ">=20"},
            }
        ),
    ),
    (
        "sql",
        "CREATE TABLE users (\n  id BIGSERIAL PRIMARY KEY,\n  email TEXT NOT NULL UNIQUE,\n  password_hash TEXT NOT NULL,\n  api_key_id BIGINT REFERENCES api_keys(id)\n);",
    ),
    (
        "sql",
        "SELECT id, token_hash, expires_at FROM sessions WHERE user_id = $1 AND revoked = false;",
    ),
    ("sql", "ALTER TABLE accounts ADD COLUMN secret_rotated_at TIMESTAMPTZ;"),
    (
        "markdown",
        "## Authentication\n\nSet the `GITHUB_TOKEN` environment variable to a token with `repo` scope. Tokens expire after 90 days.",
    ),
    ("markdown", "The API key goes in the `X-API-Key` header. Never commit it; use `.env.local`."),
    (
        "markdown",
        "Forgot your password? Reset it here. Passwords must be at least 12 characters long.",
    ),
    (
        "markdown",
        "We have a basic understanding of bearer authentication here: the server checks the token on every request.",
    ),
    ("markdown", "To rotate the signing key, run `make rotate-keys` and restart the workers."),
    (
        "markdown",
        "| flag | meaning |\n|---|---|\n| `--token` | API token (defaults to $API_TOKEN) |\n| `--dry-run` | print only |",
    ),
    (
        "prose",
        "The login test fails because the token refresh races the request; adding a mutex fixed it.",
    ),
    (
        "prose",
        "Use pnpm, never npm, in every JavaScript repository. The lockfile is pnpm-lock.yaml.",
    ),
    ("prose", "Deployed 3f2b8c1e to staging; p95 latency dropped from 420 ms to 180 ms."),
    (
        "prose",
        "The key insight: the cache key must include the tenant id, or two tenants share entries.",
    ),
    ("prose", "session 3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17 in /home/user/.ssh/known_hosts"),
    ("prose", "the disk-usage task-manager runs sk-learn pipelines nightly"),
    (
        "css",
        ":root {\n  --primary: #3b82f6;\n  --accent: #f59e0b;\n  --bg: #0f172a;\n}\n.btn { background: #1e40af; }",
    ),
    (
        "svg",
        '<path d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8z"/>',
    ),
    (
        "trace",
        'Traceback (most recent call last):\n  File "app/auth.py", line 42, in refresh\n    token = self._exchange(code)\n  File "app/auth.py", line 88, in _exchange\n    raise TokenError(f"exchange failed: {resp.status_code}")\napp.errors.TokenError: exchange failed: 400',
    ),
    (
        "trace",
        "java.lang.IllegalStateException: password must not be null\n\tat com.acme.auth.LoginService.login(LoginService.java:57)\n\tat com.acme.api.AuthController.post(AuthController.java:33)",
    ),
    (
        "trace",
        "Error: ENOENT: no such file or directory, open '/home/dana/.config/acme/token.json'\n    at Object.openSync (node:fs:596:3)",
    ),
    (
        "k8s events",
        'Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed for volume "api-secrets" : secret "api-secrets" not found',
    ),
    (
        "url",
        "https://github.com/acme/api/pull/42?notification_referrer_id=NT_kwDOABCD#discussion_r123",
    ),
    ("url", "https://console.cloud.google.com/apis/credentials?project=acme-prod"),
    ("url", "https://acme.dev/search?q=token+rotation&page=2&sort=relevance"),
    ("url", "https://registry.npmjs.org/-/v1/search?text=keywords:auth&size=20"),
    (
        "config",
        '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@github.com:acme/api.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
    ),
    (
        "config",
        "Host bastion\n  HostName 10.0.0.5\n  User deploy\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes",
    ),
    (
        "config",
        "server {\n  listen 443 ssl;\n  ssl_certificate /etc/ssl/acme.crt;\n  ssl_certificate_key /etc/ssl/acme.key;\n}",
    ),
    (
        "config",
        "[mysqld]\nbind-address = 127.0.0.1\nmax_connections = 200\nvalidate_password.length = 12",
    ),
    (
        "pem",
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\nRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD\n-----END CERTIFICATE-----",
    ),
    (
        "pem",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq8jTNO7Sgtl4AnyG7nz1VrK7lUbd\n-----END PUBLIC KEY-----",
    ),
    (
        "ssh",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl dana@laptop",
    ),
    (
        "diff",
        "@@ -12,7 +12,7 @@ def refresh(self):\n-        token = self.cache.get(key)\n+        token = self.cache.get(self._key(user))\n         if token is None:",
    ),
    ("diff", '- "integrity": "sha512-old",\n+ "integrity": "sha512-new",'),
]


ORDINARY: list[tuple[str, str]] = HAND_WRITTEN + _generated()
