//! The OpenID Connect relying party: discovery (cached, refreshed for key rotation), the
//! authorization request (code + PKCE S256 + nonce + state), the code exchange and the ID
//! token checks (issuer, audience, expiry, issue time, nonce, signature by the JWKS with
//! asymmetric algorithms only, access-token hash). The `openidconnect` crate does the
//! protocol; this module pins its choices.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use openidconnect::core::{
    CoreAuthDisplay, CoreAuthPrompt, CoreAuthenticationFlow, CoreErrorResponseType,
    CoreGenderClaim, CoreJsonWebKey, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm,
    CoreRevocableToken, CoreRevocationErrorResponse, CoreTokenIntrospectionResponse, CoreTokenType,
};
use openidconnect::{
    AccessTokenHash, AdditionalClaims, AuthorizationCode, ClaimsVerificationError, Client,
    ClientId, ClientSecret, CsrfToken, EmptyExtraTokenFields, EndpointMaybeSet, EndpointNotSet,
    EndpointSet, IdToken, IdTokenFields, IdTokenVerifier, IssuerUrl, LogoutRequest, Nonce,
    OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, PostLogoutRedirectUrl,
    ProviderMetadataWithLogout, RedirectUrl, RequestTokenError, Scope, SignatureVerificationError,
    StandardErrorResponse, StandardTokenResponse, TokenResponse,
};
use serde::{Deserialize, Serialize};
use tokio::sync::RwLock;

/// Microsoft Entra ID style claims beside the standard ones.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EntraClaims {
    /// The person's object id in the tenant (stable across applications).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oid: Option<String>,
    /// The tenant id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tid: Option<String>,
    /// Directory groups. Read, logged as a count, never used for roles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<String>>,
}
impl AdditionalClaims for EntraClaims {}

pub type EntraIdToken = IdToken<
    EntraClaims,
    CoreGenderClaim,
    CoreJweContentEncryptionAlgorithm,
    CoreJwsSigningAlgorithm,
>;
type EntraIdTokenFields = IdTokenFields<
    EntraClaims,
    EmptyExtraTokenFields,
    CoreGenderClaim,
    CoreJweContentEncryptionAlgorithm,
    CoreJwsSigningAlgorithm,
>;
type EntraTokenResponse = StandardTokenResponse<EntraIdTokenFields, CoreTokenType>;
type EntraClient = Client<
    EntraClaims,
    CoreAuthDisplay,
    CoreGenderClaim,
    CoreJweContentEncryptionAlgorithm,
    CoreJsonWebKey,
    CoreAuthPrompt,
    StandardErrorResponse<CoreErrorResponseType>,
    EntraTokenResponse,
    CoreTokenIntrospectionResponse,
    CoreRevocableToken,
    CoreRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// Signature algorithms accepted on ID tokens: asymmetric only, whatever the provider
/// advertises (no `none`, no HMAC with the client secret: no algorithm confusion).
const ALLOWED_ALGS: [CoreJwsSigningAlgorithm; 6] = [
    CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
    CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha384,
    CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha512,
    CoreJwsSigningAlgorithm::RsaSsaPssSha256,
    CoreJwsSigningAlgorithm::EcdsaP256Sha256,
    CoreJwsSigningAlgorithm::EcdsaP384Sha384,
];
/// Discovery and keys are re-read after this long, or sooner when a token names an unknown key.
const METADATA_TTL: Duration = Duration::from_secs(3600);
/// At most one key refresh per this interval (a forged `kid` must not make us hammer the IdP).
const MIN_REFRESH_INTERVAL: Duration = Duration::from_secs(30);
/// ID tokens are minted at the exchange: one issued further in the future than this is refused.
const MAX_IAT_SKEW_SECS: i64 = 120;
const IAT_FUTURE: &str = "issued in the future";

/// Settings, from `CLEARWAY_OIDC_*`.
#[derive(Debug, Clone)]
pub struct SsoSettings {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Allowed redirect URIs (registered at the provider); the first is the default.
    pub redirect_urls: Vec<String>,
    /// Where the provider sends the browser after logout (default: `/login-b` on the origin of
    /// the first redirect URI).
    pub post_logout_redirect_url: Option<String>,
    /// Scopes besides `openid` (always requested).
    pub scopes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SsoConfigError {
    #[error("CLEARWAY_OIDC_ISSUER is not a valid URL: {0}")]
    Issuer(String),
    #[error("CLEARWAY_OIDC_ISSUER must use https (plain http only on a loopback address)")]
    InsecureIssuer,
    #[error("CLEARWAY_OIDC_CLIENT_ID is required when CLEARWAY_OIDC_ISSUER is set")]
    ClientId,
    #[error("CLEARWAY_OIDC_REDIRECT_URL is required and must hold absolute URLs: {0}")]
    RedirectUrl(String),
    #[error("CLEARWAY_OIDC_POST_LOGOUT_REDIRECT_URL is not a valid URL: {0}")]
    PostLogout(String),
    #[error("building the HTTP client: {0}")]
    Http(String),
}

struct Cached {
    metadata: Arc<ProviderMetadataWithLogout>,
    fetched: Instant,
}

pub struct Oidc {
    issuer: IssuerUrl,
    client_id: ClientId,
    client_secret: Option<ClientSecret>,
    redirect_urls: Vec<RedirectUrl>,
    post_logout: PostLogoutRedirectUrl,
    scopes: Vec<Scope>,
    http: reqwest::Client,
    cache: RwLock<Option<Cached>>,
}

/// What the browser needs to go to the provider, and what we keep.
pub struct Started {
    pub authorization_url: String,
    pub state: String,
    pub nonce: String,
    pub code_verifier: String,
    pub code_challenge: String,
    pub redirect_url: String,
}

/// Verified identity from an ID token.
#[derive(Debug, Clone)]
pub struct Identity {
    pub issuer: String,
    /// `oid` when the provider sends one (Entra), otherwise `sub`.
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: Option<bool>,
    pub tenant: Option<String>,
    pub group_count: usize,
    pub id_token: String,
}

/// Why a sign-in failed at the protocol level; each has a reason code for the client.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("the provider could not be reached or answered badly: {0}")]
    Unavailable(String),
    #[error("the provider refused the authorization code: {0}")]
    CodeRejected(String),
    #[error("the provider sent no ID token")]
    NoIdToken,
    #[error("ID token audience: {0}")]
    Audience(String),
    #[error("ID token expired: {0}")]
    Expired(String),
    #[error("ID token issue time: {0}")]
    IssuedAt(String),
    #[error("ID token nonce: {0}")]
    Nonce(String),
    #[error("ID token issuer: {0}")]
    Issuer(String),
    #[error("ID token signature: {0}")]
    Signature(String),
    #[error("ID token invalid: {0}")]
    Invalid(String),
}

impl FlowError {
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Unavailable(_) => "PROVIDER_UNAVAILABLE",
            Self::CodeRejected(_) => "CODE_REJECTED",
            Self::NoIdToken => "TOKEN_MISSING",
            Self::Audience(_) => "TOKEN_AUDIENCE",
            Self::Expired(_) => "TOKEN_EXPIRED",
            Self::IssuedAt(_) => "TOKEN_ISSUED_AT",
            Self::Nonce(_) => "TOKEN_NONCE",
            Self::Issuer(_) => "TOKEN_ISSUER",
            Self::Signature(_) => "TOKEN_SIGNATURE",
            Self::Invalid(_) => "TOKEN_INVALID",
        }
    }
}

fn is_loopback(url: &openidconnect::url::Url) -> bool {
    match url.host() {
        Some(openidconnect::url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(openidconnect::url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(openidconnect::url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

impl Oidc {
    pub fn new(settings: SsoSettings) -> Result<Self, SsoConfigError> {
        let issuer = IssuerUrl::new(settings.issuer.trim().to_string())
            .map_err(|e| SsoConfigError::Issuer(e.to_string()))?;
        let parsed = issuer.url();
        if parsed.scheme() != "https" && !(parsed.scheme() == "http" && is_loopback(parsed)) {
            return Err(SsoConfigError::InsecureIssuer);
        }
        let client_id = settings.client_id.trim();
        if client_id.is_empty() {
            return Err(SsoConfigError::ClientId);
        }
        let redirect_urls = settings
            .redirect_urls
            .iter()
            .map(|u| u.trim())
            .filter(|u| !u.is_empty())
            .map(|u| {
                RedirectUrl::new(u.to_string())
                    .map_err(|e| SsoConfigError::RedirectUrl(format!("{u}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let Some(first) = redirect_urls.first() else {
            return Err(SsoConfigError::RedirectUrl("none given".into()));
        };
        let post_logout = match settings.post_logout_redirect_url.as_deref().map(str::trim) {
            Some(u) if !u.is_empty() => PostLogoutRedirectUrl::new(u.to_string())
                .map_err(|e| SsoConfigError::PostLogout(e.to_string()))?,
            _ => {
                let url = first
                    .url()
                    .join("/login-b")
                    .map_err(|e| SsoConfigError::RedirectUrl(format!("{}: {e}", first.as_str())))?;
                PostLogoutRedirectUrl::from_url(url)
            }
        };
        let scopes = settings
            .scopes
            .iter()
            .flat_map(|s| s.split([' ', ',']))
            .filter(|s| !s.is_empty() && *s != "openid")
            .map(|s| Scope::new(s.to_string()))
            .collect();
        let http = reqwest::Client::builder()
            // No redirects: discovery, keys and tokens come from the configured provider only.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            // No idle connections kept: the provider may close one (its keep-alive timeout)
            // just as a sign-in reuses it, and the single-use code exchange cannot be sent
            // again safely. Sign-ins are rare; a fresh connection each costs nothing.
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| SsoConfigError::Http(e.to_string()))?;
        Ok(Self {
            issuer,
            client_id: ClientId::new(client_id.to_string()),
            client_secret: settings
                .client_secret
                .filter(|s| !s.is_empty())
                .map(ClientSecret::new),
            redirect_urls,
            post_logout,
            scopes,
            http,
            cache: RwLock::new(None),
        })
    }

    pub fn issuer(&self) -> &str {
        self.issuer.as_str()
    }

    pub fn redirect_urls(&self) -> impl Iterator<Item = &str> {
        self.redirect_urls.iter().map(|u| u.as_str())
    }

    /// The registered redirect URI matching `wanted` exactly, or the default one.
    pub fn redirect_url(&self, wanted: Option<&str>) -> Option<&RedirectUrl> {
        match wanted {
            None => self.redirect_urls.first(),
            Some(w) => self.redirect_urls.iter().find(|u| u.as_str() == w),
        }
    }

    async fn metadata(&self, force: bool) -> Result<Arc<ProviderMetadataWithLogout>, FlowError> {
        if let Some(c) = self.cache.read().await.as_ref() {
            let age = c.fetched.elapsed();
            if age < METADATA_TTL && !(force && age >= MIN_REFRESH_INTERVAL) {
                return Ok(c.metadata.clone());
            }
        }
        let mut cache = self.cache.write().await;
        if let Some(c) = cache.as_ref() {
            let age = c.fetched.elapsed();
            // Someone else refreshed while we waited for the lock.
            if age < MIN_REFRESH_INTERVAL || (!force && age < METADATA_TTL) {
                return Ok(c.metadata.clone());
            }
        }
        let metadata = ProviderMetadataWithLogout::discover_async(self.issuer.clone(), &self.http)
            .await
            .map_err(|e| FlowError::Unavailable(error_chain(&e)))?;
        let metadata = Arc::new(metadata);
        *cache = Some(Cached {
            metadata: metadata.clone(),
            fetched: Instant::now(),
        });
        Ok(metadata)
    }

    fn client(&self, metadata: &ProviderMetadataWithLogout, redirect: &RedirectUrl) -> EntraClient {
        EntraClient::from_provider_metadata(
            metadata.clone(),
            self.client_id.clone(),
            self.client_secret.clone(),
        )
        .set_redirect_uri(redirect.clone())
    }

    /// A fresh authorization request for `redirect`.
    pub async fn start(&self, redirect: &RedirectUrl) -> Result<Started, FlowError> {
        let metadata = self.metadata(false).await?;
        let client = self.client(&metadata, redirect);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .set_pkce_challenge(challenge.clone());
        for scope in &self.scopes {
            request = request.add_scope(scope.clone());
        }
        let (url, state, nonce) = request.url();
        Ok(Started {
            authorization_url: url.to_string(),
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            code_verifier: verifier.secret().clone(),
            code_challenge: challenge.as_str().to_string(),
            redirect_url: redirect.as_str().to_string(),
        })
    }

    /// Exchange the code (with the PKCE verifier) and verify the ID token against `nonce`.
    pub async fn finish(
        &self,
        code: String,
        code_verifier: String,
        nonce: &str,
        redirect: &RedirectUrl,
    ) -> Result<Identity, FlowError> {
        let metadata = self.metadata(false).await?;
        let mut client = self.client(&metadata, redirect);
        let response = client
            .exchange_code(AuthorizationCode::new(code))
            .map_err(|e| FlowError::Unavailable(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(code_verifier))
            .request_async(&self.http)
            .await
            .map_err(|e| match e {
                RequestTokenError::ServerResponse(r) => FlowError::CodeRejected(format!(
                    "{}{}",
                    r.error().as_ref(),
                    r.error_description()
                        .map(|d| format!(": {d}"))
                        .unwrap_or_default()
                )),
                other => FlowError::Unavailable(error_chain(&other)),
            })?;
        let id_token = response.id_token().ok_or(FlowError::NoIdToken)?;
        let nonce = Nonce::new(nonce.to_string());
        let first = id_token.claims(&verifier(&client), &nonce);
        let claims = match first {
            // The provider may have rotated its keys: read them again, once, and retry.
            Err(ClaimsVerificationError::SignatureVerification(
                SignatureVerificationError::NoMatchingKey,
            )) => {
                let fresh = self.metadata(true).await?;
                client = self.client(&fresh, redirect);
                id_token.claims(&verifier(&client), &nonce)
            }
            other => other,
        }
        .map_err(classify)?;
        // The access token is bound to the ID token when the provider says so.
        if let Some(expected) = claims.access_token_hash() {
            let alg = id_token
                .signing_alg()
                .map_err(|e| FlowError::Signature(e.to_string()))?;
            let verifier = verifier(&client);
            let key = id_token
                .signing_key(&verifier)
                .map_err(|e| FlowError::Signature(e.to_string()))?;
            let actual = AccessTokenHash::from_token(response.access_token(), alg, key)
                .map_err(|e| FlowError::Invalid(e.to_string()))?;
            if actual != *expected {
                return Err(FlowError::Invalid(
                    "at_hash does not match the access token".into(),
                ));
            }
        }
        let extra = claims.additional_claims();
        Ok(Identity {
            issuer: claims.issuer().as_str().to_string(),
            subject: extra
                .oid
                .clone()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| claims.subject().as_str().to_string()),
            email: claims.email().map(|e| e.as_str().trim().to_string()),
            email_verified: claims.email_verified(),
            tenant: extra.tid.clone(),
            group_count: extra.groups.as_ref().map_or(0, Vec::len),
            id_token: id_token.to_string(),
        })
    }

    /// The provider's end-session URL for a session signed in with `id_token`.
    pub async fn logout_url(&self, id_token: Option<&str>) -> Result<Option<String>, FlowError> {
        let metadata = self.metadata(false).await?;
        let Some(endpoint) = metadata.additional_metadata().end_session_endpoint.clone() else {
            return Ok(None);
        };
        let mut request = LogoutRequest::from(endpoint)
            .set_client_id(self.client_id.clone())
            .set_post_logout_redirect_uri(self.post_logout.clone());
        if let Some(token) = id_token.and_then(|t| t.parse::<EntraIdToken>().ok()) {
            request = request.set_id_token_hint(&token);
        }
        Ok(Some(request.http_get_url().to_string()))
    }
}

/// The ID token checks of `client` (issuer, audience, JWKS), with our pinned choices.
fn verifier(client: &EntraClient) -> IdTokenVerifier<'_, CoreJsonWebKey> {
    client
        .id_token_verifier()
        .set_allowed_algs(ALLOWED_ALGS)
        .set_issue_time_verifier_fn(|iat| {
            let ahead = (iat - Utc::now()).num_seconds();
            if ahead > MAX_IAT_SKEW_SECS {
                Err(format!("{IAT_FUTURE}: {ahead} s ahead"))
            } else {
                Ok(())
            }
        })
}

fn classify(e: ClaimsVerificationError) -> FlowError {
    let text = e.to_string();
    match e {
        ClaimsVerificationError::InvalidAudience(_) => FlowError::Audience(text),
        // Our issue-time check reports through `Expired` too.
        ClaimsVerificationError::Expired(ref m) if m.starts_with(IAT_FUTURE) => {
            FlowError::IssuedAt(text)
        }
        ClaimsVerificationError::Expired(_) => FlowError::Expired(text),
        ClaimsVerificationError::InvalidNonce(_) => FlowError::Nonce(text),
        ClaimsVerificationError::InvalidIssuer(_) => FlowError::Issuer(text),
        ClaimsVerificationError::SignatureVerification(s) => FlowError::Signature(s.to_string()),
        _ => FlowError::Invalid(text),
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Single sign-on, when configured (`CLEARWAY_OIDC_ISSUER` set). Cheap to clone. It lives
/// here, apart from the routes, because the shared command state holds it.
#[derive(Clone)]
pub struct SsoConfig(pub(crate) Arc<Oidc>);

impl SsoConfig {
    pub fn new(settings: SsoSettings) -> Result<Self, SsoConfigError> {
        Ok(Self(Arc::new(Oidc::new(settings)?)))
    }

    pub fn issuer(&self) -> &str {
        self.0.issuer()
    }
}

impl std::fmt::Debug for SsoConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SsoConfig")
            .field("issuer", &self.0.issuer())
            .finish_non_exhaustive()
    }
}
