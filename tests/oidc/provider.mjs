// A real OpenID Connect provider (npm `oidc-provider`) on loopback, for Clearway's single
// sign-on tests. Not a stub: discovery, JWKS, authorization code + PKCE, nonce, signed ID
// tokens and RP-initiated logout are the library's own.
//
//   node provider.mjs PORT [--clock-offset=SECONDS]
//
// PORT 0 picks a free port. The first line on stdout is `listening ISSUER_URL`.
// --clock-offset shifts the provider's clock (e.g. -3600: an hour behind, so every ID token
// it signs is already expired by the relying party's clock).
//
// Sign-in is a small login form of our own (interactions): `POST /interaction/UID/login`
// with `login` and `password` (one password for every user: `secret-PASSWORD`); consent is
// pre-granted for the registered clients (first-party, like an enterprise admin consent).
//
// Test hooks, loopback only, for checks that a well-behaved provider never triggers:
//   POST /__test/tamper  body `mode=audience|foreign-key|none|hs256|off`
// re-signs the ID tokens of the following token responses: `audience` with another
// client's audience (signed with the real key), `foreign-key` with a key that is not in
// the JWKS (same kid), `none` unsigned (`alg: none`), `hs256` HMAC-signed with the client
// secret (algorithm confusion).

import { createServer } from 'node:http';
import { createHmac, generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import Provider from 'oidc-provider';

const args = process.argv.slice(2);
const port = Number(args.find((a) => !a.startsWith('--')) ?? 0);
const flag = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

const clockOffsetSeconds = Number(flag('clock-offset') ?? 0);
if (clockOffsetSeconds !== 0) {
  const realNow = Date.now;
  Date.now = () => realNow() + clockOffsetSeconds * 1000;
}

const TENANT_ID = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const PASSWORD = 'secret-PASSWORD';

// The directory: login name -> person. `groups` look powerful on purpose: Clearway must take
// roles from its own grants, never from the provider's groups.
const USERS = {
  operator: {
    oid: '00000000-0000-0000-0000-0000000000a1',
    email: 'operator@clearway.example.com',
    name: 'Olivia Operator',
    groups: ['clearway-super-admins', 'SUPER_ADMIN'],
  },
  admin: {
    oid: '00000000-0000-0000-0000-0000000000a2',
    email: 'Admin@Clearway.Example.com',
    name: 'Adam Admin',
    groups: [],
  },
  // Same e-mail as `operator`, another directory object: an impostor after the link.
  'operator-twin': {
    oid: '00000000-0000-0000-0000-0000000000a3',
    email: 'operator@clearway.example.com',
    name: 'Olivia Twin',
    groups: [],
  },
  // Known here, no staff account at Clearway.
  unknown: {
    oid: '00000000-0000-0000-0000-0000000000a4',
    email: 'unknown@clearway.example.com',
    name: 'Una Unknown',
    groups: [],
  },
  // A customer user's e-mail: customers never sign in through staff sign-on.
  acme: {
    oid: '00000000-0000-0000-0000-0000000000a5',
    email: 'acme@example.com',
    name: 'Acme Person',
    groups: [],
  },
  // The provider says its e-mail is not verified.
  unverified: {
    oid: '00000000-0000-0000-0000-0000000000a6',
    email: 'superadmin@clearway.example.com',
    email_verified: false,
    name: 'Sam Unverified',
    groups: [],
  },
};

const server = createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

// --redirect-uris=URL,URL registers more redirect URIs for the clients (the end-to-end run's
// web app: scripts/test.sh passes its /auth-redirect and /azure-redirect), with each one's
// origin + /login-b as a post-logout URI.
const EXTRA_REDIRECTS = (flag('redirect-uris') ?? '').split(',').filter(Boolean);
const CALLBACKS = ['http://127.0.0.1:1/cb', 'http://127.0.0.1:1/azure-cb', ...EXTRA_REDIRECTS];
const POST_LOGOUT = [
  'http://127.0.0.1:1/login-b',
  ...new Set(EXTRA_REDIRECTS.map((u) => `${new URL(u).origin}/login-b`)),
];
const CLIENTS = [
  {
    client_id: 'clearway',
    client_secret: 'clearway-test-secret',
    redirect_uris: CALLBACKS,
    post_logout_redirect_uris: POST_LOGOUT,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_basic',
  },
  // Another application registered at the same provider (wrong-audience checks).
  {
    client_id: 'other-app',
    client_secret: 'other-app-secret',
    redirect_uris: CALLBACKS,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_basic',
  },
  // A public client (no secret; PKCE is its only proof).
  {
    client_id: 'clearway-public',
    redirect_uris: CALLBACKS,
    post_logout_redirect_uris: POST_LOGOUT,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'none',
  },
];

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey: foreignKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KID = 'test-key-1';
const signingJwk = { ...privateKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: CLIENTS,
  jwks: { keys: [signingJwk] },
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: { enabled: true },
  },
  // Entra ID puts the profile claims into the ID token of the code flow.
  conformIdTokenClaims: false,
  claims: {
    openid: ['sub', 'oid', 'tid'],
    email: ['email', 'email_verified'],
    profile: ['name', 'groups', 'preferred_username'],
  },
  scopes: ['openid', 'email', 'profile'],
  cookies: { keys: ['clearway-test-cookie-key'] },
  ttl: {
    AccessToken: 600,
    AuthorizationCode: 60,
    IdToken: 600,
    Interaction: 3 * 3600,
    Session: 6 * 3600,
    Grant: 6 * 3600,
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(ctx, id) {
    const user = USERS[id];
    if (!user) return undefined;
    return {
      accountId: id,
      async claims() {
        return {
          // `sub` is the login name here (Entra's is pairwise per application); `oid` is
          // the person in the tenant, the subject Clearway links.
          sub: id,
          oid: user.oid,
          tid: TENANT_ID,
          email: user.email,
          email_verified: user.email_verified ?? true,
          name: user.name,
          preferred_username: user.email,
          groups: user.groups,
        };
      },
    };
  },
  // First-party clients: consent is granted once for the whole organisation.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

// --- test hooks: re-signing ID tokens --------------------------------------------------
let tamper = 'off';
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const fromB64 = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

function resign(idToken) {
  const [h, p] = idToken.split('.');
  const header = fromB64(h);
  const payload = fromB64(p);
  switch (tamper) {
    case 'audience': {
      payload.aud = 'other-app';
      const input = `${b64(header)}.${b64(payload)}`;
      return `${input}.${rsaSign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
    }
    case 'foreign-key': {
      const input = `${b64(header)}.${b64(payload)}`;
      return `${input}.${rsaSign('sha256', Buffer.from(input), foreignKey).toString('base64url')}`;
    }
    case 'none':
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
    case 'hs256': {
      const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
      const secret = CLIENTS.find((c) => c.client_id === payload.aud)?.client_secret ?? '';
      return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    }
    default:
      return idToken;
  }
}

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === '/token' && ctx.status === 200 && tamper !== 'off' && ctx.body?.id_token) {
    ctx.body = { ...ctx.body, id_token: resign(ctx.body.id_token) };
  }
});

// --- the login form (our interactions) ---------------------------------------------------
const html = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, error) {
  return `<!doctype html><html><head><title>Sign in</title></head><body>
<h1>Sign in to the test directory</h1>${error ? `<p class="error">${html(error)}</p>` : ''}
<form method="post" action="/interaction/${html(uid)}/login">
<input name="login" autofocus><input name="password" type="password">
<button type="submit">Sign in</button></form></body></html>`;
}

async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res, status, body, type = 'text/html; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

const callback = provider.callback();
server.on('request', async (req, res) => {
  try {
    const url = new URL(req.url, issuer);
    const login = url.pathname.match(/^\/interaction\/([^/]+)\/login$/);
    const page = url.pathname.match(/^\/interaction\/([^/]+)$/);
    if (url.pathname === '/__test/tamper' && req.method === 'POST') {
      tamper = (await readForm(req)).get('mode') ?? 'off';
      return send(res, 200, `tamper=${tamper}\n`, 'text/plain');
    }
    if (page && req.method === 'GET') {
      const details = await provider.interactionDetails(req, res);
      return send(res, 200, loginPage(details.uid));
    }
    if (login && req.method === 'POST') {
      const details = await provider.interactionDetails(req, res);
      const form = await readForm(req);
      const id = form.get('login') ?? '';
      if (!USERS[id] || form.get('password') !== PASSWORD) {
        return send(res, 200, loginPage(details.uid, 'wrong login or password'));
      }
      return provider.interactionFinished(req, res, { login: { accountId: id } }, {
        mergeWithLastSubmission: false,
      });
    }
    return callback(req, res);
  } catch (error) {
    return send(res, 400, `error: ${html(error.message)}\n`, 'text/plain');
  }
});

process.stdout.write(`listening ${issuer}\n`);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
